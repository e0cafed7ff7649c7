import type { FileSourceOptions } from './files.ts';
import { fileSource } from './files.ts';
import type { SourceItem } from './types.ts';
import type { UrlSourceOptions } from './url.ts';
import { urlSource } from './url.ts';

export interface SourcesFromOptions extends FileSourceOptions, UrlSourceOptions {}

const URL_PATTERN = /^https?:\/\//i;

/**
 * Documents from a mixed list of paths, folders, globs and http(s) URLs (as given on the
 * command line): local inputs first, then URLs, each in the order given.
 *
 * @example
 * for await (const item of sourcesFrom(['docs/', 'https://example.org/a.pdf'])) …
 */
export async function* sourcesFrom(inputs: readonly string[], options: Readonly<SourcesFromOptions> = {}): AsyncGenerator<SourceItem> {
  const urls = inputs.filter((input) => URL_PATTERN.test(input));
  const paths = inputs.filter((input) => !URL_PATTERN.test(input));
  const { timeoutMs, maxRedirects, retries, retryDelayMs, signal, maxBytes, skipHidden, root, exclude, listing } = options;
  if (paths.length > 0) yield* fileSource(paths, strip({ maxBytes, skipHidden, root, exclude, signal, listing }));
  if (urls.length > 0) yield* urlSource(urls, strip({ timeoutMs, maxBytes, maxRedirects, retries, retryDelayMs, signal, listing }));
}

/** Drop undefined fields so each source's defaults apply. */
function strip<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
