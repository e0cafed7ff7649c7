/**
 * Connectors: where documents come from. Files, folders and globs ({@link fileSource}), http(s)
 * URLs ({@link urlSource}), or both from command-line inputs ({@link sourcesFrom}). Each yields
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

export type { FileSourceOptions } from './files.ts';
export { commonRoot, fileSource } from './files.ts';
export type { SourceScope } from './listing.ts';
export { globToRegExp, SourceListing } from './listing.ts';
export { SUPPORTED_MIME_TYPES, sniffMime } from './sniff.ts';
export type { SourcesFromOptions } from './sources.ts';
export { sourcesFrom } from './sources.ts';
export type { SourceFailure, SourceItem } from './types.ts';
export { isSourceFailure, sourceFailure } from './types.ts';
export type { UrlSourceOptions } from './url.ts';
export { urlSource } from './url.ts';
