/**
 * Connectors: where documents come from. Files, folders and globs ({@link fileSource}), http(s)
 * URLs ({@link urlSource}), S3-compatible buckets ({@link s3Source}, the AWS SDK loaded only then),
 * websites ({@link crawlSource}: robots.txt, sitemap, same-site links, linked files), or all of
 * them from command-line inputs ({@link sourcesFrom}). Each yields
 * `SourceDocument`s (type sniffed from the bytes, deterministic id, sha256) one at a time, and a
 * {@link SourceFailure} record instead of throwing for an input that cannot be read.
 *
 * @example
 * import { sourcesFrom, isSourceFailure } from './connector/index.ts';
 * for await (const item of sourcesFrom(['docs/', 'https://example.org/a.pdf'])) {
 *   if (isSourceFailure(item)) console.warn(item.code, item.reason); else console.log(item.relativePath, item.mime);
 * }
 */

// First: on a Node older than the package supports, this fails at once naming both versions.
import '../core/require-node.ts';

export type { CrawlOptions } from './crawl.ts';
export { crawlSource } from './crawl.ts';
export { canonicalUrl } from './crawl-url.ts';
export type { FileSourceOptions } from './files.ts';
export { commonRoot, fileSource } from './files.ts';
export type { SourceScope } from './listing.ts';
export { globToRegExp, SourceListing } from './listing.ts';
export type { RobotsRules } from './robots.ts';
export { parseRobots } from './robots.ts';
export type { S3SourceOptions } from './s3.ts';
export { readS3Object, s3Source, s3Version } from './s3.ts';
export type { S3Address } from './s3-address.ts';
export { isS3Input, parseS3Address, s3Uri } from './s3-address.ts';
export type { S3ConnectionOptions } from './s3-client.ts';
export { parseSitemap } from './sitemap.ts';
export { SUPPORTED_MIME_TYPES, sniffMime } from './sniff.ts';
export type { SourcesFromOptions } from './sources.ts';
export { sourcesFrom } from './sources.ts';
export type { SourceFailure, SourceItem } from './types.ts';
export { isSourceFailure, sourceFailure } from './types.ts';
export type { UrlSourceOptions } from './url.ts';
export { urlSource } from './url.ts';
