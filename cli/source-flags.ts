/**
 * Flags of the sources `ingest` and `convert` read beyond files and single URLs: S3-compatible
 * buckets (`s3://bucket/prefix`) and website crawls (`--crawl`). Credentials are never flags: the AWS SDK reads them from the
 * environment or the shared profile, where they do not end up in shell histories and process lists.
 */
import type { SourcesFromOptions } from '../connector/index.ts';
import { ConfigurationError } from '../core/errors.ts';
import { integer } from './options.ts';

export const SOURCE_FLAGS = {
  's3-endpoint': { type: 'string' },
  's3-region': { type: 'string' },
  's3-path-style': { type: 'boolean' },
  crawl: { type: 'boolean', default: false },
  depth: { type: 'string' },
  'max-pages': { type: 'string' },
} as const;

export const SOURCE_USAGE = `  --s3-endpoint URL    S3-compatible server for s3://bucket/prefix inputs (MinIO, Ceph, a
                       gateway; default: AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, else AWS).
                       Credentials and region as the AWS SDK reads them: AWS_ACCESS_KEY_ID,
                       AWS_SECRET_ACCESS_KEY, AWS_REGION, or AWS_PROFILE and ~/.aws
  --s3-region R        region to sign for (default: AWS_REGION, the profile's; us-east-1
                       for a custom endpoint)
  --[no-]s3-path-style endpoint/bucket/key addressing (default: on with a custom endpoint)
  --crawl              crawl the http(s) inputs as websites: robots.txt obeyed, the sitemap's
                       pages (else same-site links), PDFs and other files the pages link,
                       one request at a time per host; a rerun asks with the validators
                       recorded (304: unchanged) and prunes pages gone (404, 410, unreached)
  --depth N            link hops followed from the start page (default 3)
  --max-pages N        documents fetched per site, at most (default 1000)`;

type SourceValues = {
  readonly 's3-endpoint'?: string | undefined;
  readonly 's3-region'?: string | undefined;
  readonly 's3-path-style'?: boolean | undefined;
  readonly crawl?: boolean | undefined;
  readonly depth?: string | undefined;
  readonly 'max-pages'?: string | undefined;
};

/** The `s3` and `crawl` options of `sourcesFrom` from the parsed flags. */
export function sourceOptions(values: SourceValues): Pick<SourcesFromOptions, 's3' | 'crawl'> {
  const endpoint = values['s3-endpoint'];
  if (endpoint !== undefined && !/^https?:\/\/[^/]/i.test(endpoint)) {
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `Expected \`--s3-endpoint\` to be an http(s) URL, got \`${endpoint}\``);
  }
  const s3 = {
    ...(endpoint === undefined ? {} : { endpoint }),
    ...(values['s3-region'] === undefined ? {} : { region: values['s3-region'] }),
    ...(values['s3-path-style'] === undefined ? {} : { forcePathStyle: values['s3-path-style'] }),
  };
  const depth = integer('depth', values.depth, 0);
  const maxPages = integer('max-pages', values['max-pages'], 1);
  if (values.crawl !== true) {
    if (depth !== undefined || maxPages !== undefined) throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', '`--depth` and `--max-pages` go with `--crawl`');
    return { s3 };
  }
  return { s3, crawl: { ...(depth === undefined ? {} : { depth }), ...(maxPages === undefined ? {} : { maxPages }) } };
}
