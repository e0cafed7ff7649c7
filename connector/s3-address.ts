/**
 * `s3://bucket/prefix` inputs: the bucket, the key prefix a listing asks for, and, when the key
 * part holds glob characters (`s3://bucket/reports/**\/*.pdf`), the pattern keys must match.
 */
import { globToRegExp } from './listing.ts';

/** An `s3://` input taken apart. */
export interface S3Address {
  readonly bucket: string;
  /** The key prefix listed (everything before the first glob character; `''` for the whole bucket). */
  readonly prefix: string;
  /** Keys must match this when the input holds a glob; undefined otherwise. */
  readonly pattern: RegExp | undefined;
  /** Where relative paths start: the prefix up to its last `/`. */
  readonly base: string;
  /** The `s3://bucket/prefix` URI under which this input's documents are recorded. */
  readonly scope: string;
}

const S3_PATTERN = /^s3:\/\//i;
const GLOB_CHARS = /[*?[\]{}]/;
/** Bucket names as S3 allows them (3–63 of lowercase letters, digits, dots and hyphens), a little looser for S3-compatible servers. */
const BUCKET = /^[a-z0-9][a-z0-9._-]{1,62}$/i;

/** True for an `s3://` input. */
export function isS3Input(input: string): boolean {
  return S3_PATTERN.test(input);
}

/** The `s3://bucket/key` URI a document is recorded under. */
export function s3Uri(bucket: string, key: string): string {
  return `s3://${bucket}/${key}`;
}

/**
 * Take an `s3://bucket/prefix` input apart; undefined when it names no valid bucket.
 *
 * @example
 * parseS3Address('s3://docs/2024/*.pdf') // { bucket: 'docs', prefix: '2024/', pattern: /^2024\/[^/]*\.pdf$/, … }
 */
export function parseS3Address(input: string): S3Address | undefined {
  if (!isS3Input(input)) return undefined;
  const rest = input.slice('s3://'.length);
  const slash = rest.indexOf('/');
  const bucket = slash === -1 ? rest : rest.slice(0, slash);
  const key = slash === -1 ? '' : rest.slice(slash + 1);
  if (!BUCKET.test(bucket)) return undefined;
  const globAt = key.search(GLOB_CHARS);
  const prefix = globAt === -1 ? key : key.slice(0, globAt);
  const pattern = globAt === -1 ? undefined : globToRegExp(key);
  // A prefix without a trailing `/` may name a "folder" or a single key: paths start at its folder.
  const base = prefix.slice(0, prefix.lastIndexOf('/') + 1);
  return { bucket, prefix, pattern, base, scope: s3Uri(bucket, prefix) };
}
