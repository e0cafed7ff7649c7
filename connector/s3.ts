/**
 * Documents from S3-compatible object storage, synced like a folder: each `s3://bucket/prefix`
 * is listed page by page, every object's version (ETag, size, date) is checked against what the
 * sink holds before anything is downloaded, bodies stream in under `maxBytes`, and a listing
 * read to its end lets a sync prune the keys that are gone.
 *
 * Wrong credentials stop the run as a configuration problem (exit 2); a server that stops
 * answering past the retries stops it as a lost source (exit 3), and nothing is pruned.
 */
import { ConfigurationError, SourceError } from '../core/errors.ts';
import { sha256, stableId } from '../core/hash.ts';
import type { SourceDocument } from '../core/types.ts';
import type { SourceListing } from './listing.ts';
import { parseS3Address, type S3Address, s3Uri } from './s3-address.ts';
import { openS3, type S3ConnectionOptions } from './s3-client.ts';
import { Session } from './s3-session.ts';
import { SUPPORTED_MIME_TYPES, sniffMime } from './sniff.ts';
import type { SourceItem } from './types.ts';
import { sourceFailure } from './types.ts';

export interface S3SourceOptions extends S3ConnectionOptions {
  /**
   * Objects larger than this become a `FOLIO_TOO_LARGE` failure without being downloaded; a body
   * that streams past it (a size that changed) is cut off.
   * @default 209715200 (200 MB)
   */
  readonly maxBytes?: number;
  /**
   * Objects downloaded at once, ahead of the consumer and yielded in listing order: hides the
   * latency of one request per object. Memory holds at most this many bodies (each under `maxBytes`).
   * @default 4
   */
  readonly concurrency?: number;
  /**
   * Keys per listing request (S3 answers at most 1000).
   * @default 1000
   */
  readonly pageSize?: number;
  /**
   * Extra attempts after a transient fault (connection refused or reset, timeout, 429, 5xx,
   * SlowDown), by the one policy of `core/retry.ts`.
   * @default 2
   */
  readonly retries?: number;
  /**
   * Ceiling of the first back-off in ms, jittered; doubles each retry.
   * @default 500
   */
  readonly retryDelayMs?: number;
  /** Cancels the whole source: rejects with the abort reason. */
  readonly signal?: AbortSignal;
  /**
   * Told what each input covers and which keys are in it, for a sync that removes what is gone.
   * @default undefined
   */
  readonly listing?: SourceListing;
  /**
   * Asked before each download: the version at which the sink holds document `id`. An object
   * whose listed version equals it is reported to `listing` as unchanged and never downloaded.
   * @default undefined (everything is downloaded)
   */
  readonly knownVersion?: (id: string) => Promise<string | undefined>;
}

/** Listed object: what a version check needs. */
interface Listed {
  readonly key: string;
  readonly size: number;
  readonly etag: string;
  readonly modified: Date | undefined;
}

/**
 * The version token of an object: a new upload changes its ETag or date, a rewrite its size.
 *
 * @example
 * s3Version('"9b2cf535f27731c974343645a3985328"', 1024, new Date(0)) // 'etag="9b2c…";size=1024;modified=1970-01-01T00:00:00.000Z'
 */
export function s3Version(etag: string, size: number, modified: Date | undefined): string {
  return `etag=${etag};size=${size};modified=${modified?.toISOString() ?? ''}`;
}

/**
 * Documents from `s3://bucket/prefix` inputs (a glob in the key part filters keys), one object at
 * a time. An object that cannot be read becomes a {@link SourceFailure}; wrong credentials reject
 * with a ConfigurationError, a server lost mid-run with a SourceError `FOLIO_SOURCE_LOST`.
 *
 * @example
 * for await (const item of s3Source(['s3://docs/reports/'], { endpoint: 'http://127.0.0.1:9000' })) …
 */
export async function* s3Source(inputs: readonly string[], options: Readonly<S3SourceOptions> = {}): AsyncGenerator<SourceItem> {
  const { maxBytes = 200 * 1024 * 1024, pageSize = 1000, concurrency = 4, retries = 2, retryDelayMs = 500, signal, listing, knownVersion } = options;
  if (!(Number.isInteger(concurrency) && concurrency >= 1)) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`concurrency\` to be an integer from 1 and up, got \`${concurrency}\` (${typeof concurrency})`);
  }
  if (!(Number.isFinite(maxBytes) && maxBytes > 0)) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`maxBytes\` to be a number from 1 and up, got \`${maxBytes}\` (${typeof maxBytes})`);
  }
  if (!(Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= 1000)) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`pageSize\` to be an integer from 1 to 1000, got \`${pageSize}\` (${typeof pageSize})`);
  }
  const addresses: S3Address[] = [];
  for (const input of inputs) {
    const address = parseS3Address(input);
    if (address === undefined) yield sourceFailure(input, 'FOLIO_BAD_URL', `${input}: not an s3://bucket/prefix address`);
    else addresses.push(address);
  }
  if (addresses.length === 0) return;
  const kit = await openS3(options);
  const session = new Session(kit, { retries, retryDelayMs, signal });
  try {
    for (const address of addresses) {
      // Downloads started ahead, yielded in order. A fatal fault rejects the one awaited next;
      // the others are marked handled and end with the client.
      const ahead: Promise<SourceItem>[] = [];
      try {
        for await (const page of listPages(session, address, pageSize)) {
          for (const object of page) {
            signal?.throwIfAborted();
            const uri = s3Uri(address.bucket, object.key);
            const id = stableId(uri);
            const version = s3Version(object.etag, object.size, object.modified);
            if (knownVersion !== undefined && (await knownVersion(id)) === version) {
              listing?.unchanged(uri);
              continue;
            }
            listing?.present(uri);
            const download = readObject(session, address, object, { uri, id, version, maxBytes });
            download.catch(() => undefined);
            ahead.push(download);
            if (ahead.length >= concurrency) yield await (ahead.shift() as Promise<SourceItem>);
          }
        }
      } catch (error) {
        if (!(error instanceof ListingFailed)) throw error;
        // A missing bucket or a refused listing: this input yields what it had and prunes nothing.
        listing?.failed(error.message);
        while (ahead.length > 0) yield await (ahead.shift() as Promise<SourceItem>);
        yield sourceFailure(address.scope, 'FOLIO_LISTING_FAILED', error.message);
        continue;
      }
      while (ahead.length > 0) yield await (ahead.shift() as Promise<SourceItem>);
      // Read to its end: every key under the prefix is known, so one not seen is gone.
      const pattern = address.pattern;
      const keyOf = (uri: string): string => uri.slice(`s3://${address.bucket}/`.length);
      listing?.prefix(address.scope, pattern === undefined ? undefined : (uri) => pattern.test(keyOf(uri)));
    }
  } finally {
    kit.client.destroy();
  }
}

/**
 * The one object `s3://bucket/key` names (no listing, no glob), as a document, or a
 * {@link SourceFailure} saying why not (missing, empty, too large, unsupported). Wrong
 * credentials reject with a ConfigurationError, an unreachable server with one too.
 *
 * @example
 * const item = await readS3Object('s3://docs/reports/q3.pdf', { endpoint: 'http://127.0.0.1:9000' });
 */
export async function readS3Object(
  input: string,
  options: Readonly<Pick<S3SourceOptions, 'endpoint' | 'region' | 'forcePathStyle' | 'timeoutMs' | 'maxBytes' | 'retries' | 'retryDelayMs' | 'signal'>> = {},
): Promise<SourceItem> {
  const { maxBytes = 200 * 1024 * 1024, retries = 2, retryDelayMs = 500, signal } = options;
  const address = parseS3Address(input);
  if (address === undefined || address.pattern !== undefined || address.prefix === '' || address.prefix.endsWith('/'))
    return sourceFailure(input, 'FOLIO_BAD_URL', `${input}: not the s3://bucket/key address of one object`);
  const uri = s3Uri(address.bucket, address.prefix);
  const kit = await openS3(options);
  const session = new Session(kit, { retries, retryDelayMs, signal });
  try {
    const { client, GetObjectCommand } = kit;
    let got: { bytes: Uint8Array; etag: string; modified: Date | undefined };
    try {
      got = await session.call(`reading ${uri}`, async () => {
        const response = await client.send(new GetObjectCommand({ Bucket: address.bucket, Key: address.prefix }), { abortSignal: signal });
        if ((response.ContentLength ?? 0) > maxBytes) {
          (response.Body as { destroy?: () => void } | undefined)?.destroy?.();
          throw new TooLarge(`${uri}: ${response.ContentLength} bytes is more than \`maxBytes\` (${maxBytes})`);
        }
        const bytes = await readBounded(response.Body as AsyncIterable<Uint8Array> | undefined, maxBytes, uri);
        return { bytes, etag: response.ETag ?? '', modified: response.LastModified };
      });
    } catch (error) {
      if (error instanceof ConfigurationError || error instanceof SourceError) throw error;
      const status = (error as { status?: number }).status;
      const code = error instanceof TooLarge ? 'FOLIO_TOO_LARGE' : status === 404 ? 'FOLIO_NOT_FOUND' : 'FOLIO_FETCH_FAILED';
      const message = error instanceof Error ? error.message : String(error);
      return sourceFailure(uri, code, message.includes(uri) ? message : `${uri}: ${message}`);
    }
    const { bytes, etag, modified } = got;
    if (bytes.byteLength === 0) return sourceFailure(uri, 'FOLIO_EMPTY_FILE', `${uri}: the object is empty (0 bytes)`);
    const relativePath = address.prefix.slice(address.base.length);
    const mime = sniffMime(bytes, relativePath);
    if (!SUPPORTED_MIME_TYPES.has(mime)) return sourceFailure(uri, 'FOLIO_UNSUPPORTED_TYPE', `${uri}: unsupported content (sniffed as ${mime})`);
    return {
      id: stableId(uri),
      uri,
      relativePath,
      mime,
      bytes,
      contentHash: sha256(bytes),
      version: s3Version(etag, bytes.byteLength, modified),
      ...(modified === undefined ? {} : { modifiedAt: modified }),
    };
  } finally {
    kit.client.destroy();
  }
}

/** The objects under `address`, one listing page at a time; folder markers and keys outside the glob left out. */
async function* listPages(session: Session, address: S3Address, pageSize: number): AsyncGenerator<Listed[]> {
  const { client, ListObjectsV2Command } = session.kit;
  let token: string | undefined;
  do {
    const what = `listing ${address.scope}`;
    let page;
    try {
      page = await session.call(what, () =>
        client.send(new ListObjectsV2Command({ Bucket: address.bucket, Prefix: address.prefix, MaxKeys: pageSize, ContinuationToken: token }), {
          abortSignal: session.settings.signal,
        }),
      );
    } catch (error) {
      if (error instanceof ConfigurationError || error instanceof SourceError || !(error instanceof Error)) throw error;
      throw new ListingFailed(`${address.scope}: the bucket could not be listed (${error.message}); nothing under it is pruned`);
    }
    const objects: Listed[] = [];
    for (const entry of page.Contents ?? []) {
      const key = entry.Key;
      if (key === undefined || key.endsWith('/')) continue;
      if (address.pattern !== undefined && !address.pattern.test(key)) continue;
      objects.push({ key, size: entry.Size ?? 0, etag: entry.ETag ?? '', modified: entry.LastModified });
    }
    yield objects;
    token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
  } while (token !== undefined);
}

async function readObject(
  session: Session,
  address: S3Address,
  object: Listed,
  doc: { readonly uri: string; readonly id: string; readonly version: string; readonly maxBytes: number },
): Promise<SourceItem> {
  const { uri, id, version, maxBytes } = doc;
  if (object.size === 0) return sourceFailure(uri, 'FOLIO_EMPTY_FILE', `${uri}: the object is empty (0 bytes)`);
  if (object.size > maxBytes) return sourceFailure(uri, 'FOLIO_TOO_LARGE', `${uri}: ${object.size} bytes is more than \`maxBytes\` (${maxBytes})`);
  const { client, GetObjectCommand } = session.kit;
  let got: { bytes: Uint8Array; modified: Date | undefined };
  try {
    got = await session.call(`reading ${uri}`, async () => {
      const response = await client.send(new GetObjectCommand({ Bucket: address.bucket, Key: object.key }), { abortSignal: session.settings.signal });
      const bytes = await readBounded(response.Body as AsyncIterable<Uint8Array> | undefined, maxBytes, uri);
      return { bytes, modified: response.LastModified ?? object.modified };
    });
  } catch (error) {
    if (error instanceof ConfigurationError || error instanceof SourceError) throw error;
    const status = (error as { status?: number }).status;
    const code = error instanceof TooLarge ? 'FOLIO_TOO_LARGE' : status === 404 ? 'FOLIO_NOT_FOUND' : 'FOLIO_FETCH_FAILED';
    return sourceFailure(uri, code, `${uri}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { bytes } = got;
  const relativePath = object.key.startsWith(address.base) ? object.key.slice(address.base.length) : object.key;
  const mime = sniffMime(bytes, relativePath);
  if (!SUPPORTED_MIME_TYPES.has(mime)) {
    return sourceFailure(
      uri,
      'FOLIO_UNSUPPORTED_TYPE',
      `${uri}: unsupported content (sniffed as ${mime}); Folio reads PDF, PNG, JPEG, TIFF, WebP and Markdown`,
    );
  }
  const document: SourceDocument = {
    id,
    uri,
    relativePath,
    mime,
    bytes,
    contentHash: sha256(bytes),
    // The listing's version (a GET's date has coarser precision): if the object changed since, the
    // next run sees a newer version and reads it again, which costs a download, never a miss.
    version,
    ...(got.modified === undefined ? {} : { modifiedAt: got.modified }),
  };
  return document;
}

class TooLarge extends Error {}
class ListingFailed extends Error {}

/** The body, refused as soon as it streams past `maxBytes` (a size that grew since the listing). */
async function readBounded(body: AsyncIterable<Uint8Array> | undefined, maxBytes: number, uri: string): Promise<Uint8Array> {
  if (body === undefined) return new Uint8Array(0);
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const part of body) {
    total += part.byteLength;
    if (total > maxBytes) {
      (body as { destroy?: () => void }).destroy?.();
      throw new TooLarge(`${uri}: the body is more than \`maxBytes\` (${maxBytes}) bytes`);
    }
    parts.push(part);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
}
