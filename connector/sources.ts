import type { CrawlOptions } from './crawl.ts';
import type { FileSourceOptions } from './files.ts';
import { fileSource } from './files.ts';
import type { S3SourceOptions } from './s3.ts';
import { isS3Input } from './s3-address.ts';
import type { SourceItem } from './types.ts';
import type { UrlSourceOptions } from './url.ts';
import { urlSource } from './url.ts';

export interface SourcesFromOptions extends FileSourceOptions, UrlSourceOptions {
  /**
   * How `s3://` inputs are reached (endpoint, region, path style, page size); credentials come
   * from the AWS SDK's own chain (environment, shared profile).
   * @default {} (the SDK's configuration)
   */
  readonly s3?: Readonly<Omit<S3SourceOptions, 'maxBytes' | 'signal' | 'listing' | 'knownVersion' | 'retries' | 'retryDelayMs'>>;
  /**
   * Asked before a document is downloaded (`s3://` objects, crawled pages): the source version at
   * which the sink holds document `id`. An S3 object listed at that version is never read; a
   * crawled page is asked for with a conditional request.
   * @default undefined (everything is read)
   */
  readonly knownVersion?: (id: string) => Promise<string | undefined>;
  /**
   * Crawl the http(s) inputs as websites (robots.txt, sitemap or same-site links, linked files)
   * instead of fetching each as one document.
   * @default undefined (each URL is one document)
   */
  readonly crawl?: Readonly<Pick<CrawlOptions, 'depth' | 'maxPages' | 'delayMs' | 'userAgent'>>;
}

const URL_PATTERN = /^https?:\/\//i;

/**
 * Documents from a mixed list of paths, folders, globs, `s3://bucket/prefix` addresses and
 * http(s) URLs (as given on the command line; with `crawl`, websites): local inputs first, then
 * buckets, then URLs, each in the order given. The AWS SDK is loaded only when an `s3://` input is given.
 *
 * @example
 * for await (const item of sourcesFrom(['docs/', 's3://archive/2024/', 'https://example.org/a.pdf'])) …
 */
export async function* sourcesFrom(inputs: readonly string[], options: Readonly<SourcesFromOptions> = {}): AsyncGenerator<SourceItem> {
  const urls = inputs.filter((input) => URL_PATTERN.test(input));
  const buckets = inputs.filter((input) => isS3Input(input));
  const paths = inputs.filter((input) => !URL_PATTERN.test(input) && !isS3Input(input));
  const { timeoutMs, maxRedirects, retries, retryDelayMs, signal, maxBytes, skipHidden, root, exclude, listing, s3, knownVersion, crawl } = options;
  if (paths.length > 0) yield* fileSource(paths, strip({ maxBytes, skipHidden, root, exclude, signal, listing }));
  if (buckets.length > 0) {
    const { s3Source } = await import('./s3.ts');
    yield* s3Source(buckets, strip({ ...s3, maxBytes, retries, retryDelayMs, signal, listing, knownVersion }));
  }
  if (urls.length > 0 && crawl !== undefined) {
    const { crawlSource } = await import('./crawl.ts');
    yield* crawlSource(urls, strip({ ...crawl, timeoutMs, maxBytes, maxRedirects, retries, retryDelayMs, signal, listing, knownVersion }));
  } else if (urls.length > 0) yield* urlSource(urls, strip({ timeoutMs, maxBytes, maxRedirects, retries, retryDelayMs, signal, listing }));
}

/** Drop undefined fields so each source's defaults apply. */
function strip<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
