/**
 * Documents fetched over HTTP(S).
 *
 * Redirects are followed by hand so their number is bounded and each hop is checked; the size
 * limit is enforced while the body streams (a lying or missing Content-Length cannot blow the
 * memory); only transient faults are retried, by the one policy of `core/retry.ts`.
 */

import { ConfigurationError } from '../core/errors.ts';
import { sha256, stableId } from '../core/hash.ts';
import { isTransientError, isTransientStatus, RetriesExhausted, retryAfterMs, withRetry } from '../core/retry.ts';
import type { SourceDocument } from '../core/types.ts';
import { READABLE_TYPES } from '../pipeline/formats/mime.ts';
import type { SourceListing } from './listing.ts';
import { SUPPORTED_MIME_TYPES, sniffMime } from './sniff.ts';
import type { SourceItem } from './types.ts';
import { sourceFailure } from './types.ts';

export interface UrlSourceOptions {
  /**
   * Time for one attempt (connect, headers and body), in ms.
   * @default 30000
   */
  readonly timeoutMs?: number;
  /**
   * Largest body accepted, in bytes.
   * @default 209715200 (200 MB)
   */
  readonly maxBytes?: number;
  /**
   * Redirect hops followed before giving up.
   * @default 5
   */
  readonly maxRedirects?: number;
  /**
   * Extra attempts after a transient fault (the one policy of `core/retry.ts`: connection reset
   * or refused, timeout, 429, 502, 503, 504).
   * @default 2
   */
  readonly retries?: number;
  /**
   * Ceiling of the first back-off in ms, jittered; doubles each retry (a `Retry-After` header
   * wins, up to 30 s).
   * @default 500
   */
  readonly retryDelayMs?: number;
  /** Cancels the whole source: rejects with the abort reason. */
  readonly signal?: AbortSignal;
  /**
   * Told about each URL that is gone for good (404 or 410), for a sync that removes it.
   * @default undefined
   */
  readonly listing?: SourceListing;
}

/** A failure that may go away on retry. */
class Transient extends Error {
  readonly code: string;
  readonly retryAfterMs: number | undefined;
  constructor(code: string, message: string, retryAfterMs?: number) {
    super(message);
    this.code = code;
    this.retryAfterMs = retryAfterMs;
  }
}

/** A failure that will not (4xx, too large, too many redirects, bad URL). */
class Permanent extends Error {
  readonly code: string;
  readonly status: number | undefined;
  constructor(code: string, message: string, status?: number) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/**
 * Documents from URLs, one at a time. An unreachable host, an HTTP error, a body over
 * `maxBytes` or a redirect loop becomes a {@link SourceFailure}; only `signal` rejects.
 *
 * @example
 * for await (const item of urlSource(['https://example.org/a.pdf'], { timeoutMs: 10_000 })) …
 */
export async function* urlSource(urls: readonly string[], options: Readonly<UrlSourceOptions> = {}): AsyncGenerator<SourceItem> {
  const { timeoutMs = 30_000, maxBytes = 200 * 1024 * 1024, maxRedirects = 5, retries = 2, retryDelayMs = 500, signal, listing } = options;
  positive('timeoutMs', timeoutMs);
  positive('maxBytes', maxBytes);
  nonNegativeInteger('maxRedirects', maxRedirects);
  nonNegativeInteger('retries', retries);
  if (!(Number.isFinite(retryDelayMs) && retryDelayMs >= 0)) {
    throw new ConfigurationError(
      'FOLIO_BAD_OPTION',
      `Expected \`retryDelayMs\` to be a number from 0 and up, got \`${retryDelayMs}\` (${typeof retryDelayMs})`,
    );
  }
  for (const url of urls) {
    signal?.throwIfAborted();
    yield await fetchDocument(url, { timeoutMs, maxBytes, maxRedirects, retries, retryDelayMs, signal }, listing);
  }
}

type Settings = Required<Omit<UrlSourceOptions, 'signal' | 'listing'>> & { signal: AbortSignal | undefined };

async function fetchDocument(url: string, settings: Settings, listing?: SourceListing): Promise<SourceItem> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return sourceFailure(url, 'FOLIO_BAD_URL', `${url}: not a valid URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return sourceFailure(url, 'FOLIO_BAD_URL', `${url}: only http and https URLs are fetched, got ${parsed.protocol}`);
  }
  let attempts = 1;
  try {
    const { bytes, finalUrl, modifiedAt } = await withRetry(
      (attempt) => {
        attempts = attempt + 1;
        return fetchOnce(parsed, settings);
      },
      {
        retries: settings.retries,
        baseDelayMs: settings.retryDelayMs,
        maxDelayMs: 30_000,
        isTransient: (error) => error instanceof Transient,
        signal: settings.signal,
      },
    );
    if (bytes.byteLength === 0) return sourceFailure(url, 'FOLIO_EMPTY_FILE', `${url}: the response body is empty`);
    const name = lastSegment(finalUrl);
    const mime = sniffMime(bytes, name);
    if (!SUPPORTED_MIME_TYPES.has(mime)) {
      return sourceFailure(url, 'FOLIO_UNSUPPORTED_TYPE', `${url}: unsupported content (sniffed as ${mime}); Folio reads ${READABLE_TYPES}`);
    }
    const document: SourceDocument = {
      id: stableId(parsed.href),
      uri: parsed.href,
      relativePath: name,
      mime,
      bytes,
      contentHash: sha256(bytes),
      ...(modifiedAt === undefined ? {} : { modifiedAt }),
    };
    return document;
  } catch (caught) {
    if (settings.signal?.aborted) throw settings.signal.reason;
    const error = caught instanceof RetriesExhausted ? caught.cause : caught;
    // Gone for good: a sync removes what was indexed from it.
    if (error instanceof Permanent && (error.status === 404 || error.status === 410)) listing?.gone(parsed.href);
    if (error instanceof Transient || error instanceof Permanent) {
      const tries = attempts > 1 ? ` (after ${attempts} attempts)` : '';
      return sourceFailure(url, error.code, `${url}: ${error.message}${tries}`);
    }
    return sourceFailure(url, 'FOLIO_FETCH_FAILED', `${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function fetchOnce(start: URL, settings: Settings): Promise<{ bytes: Uint8Array; finalUrl: URL; modifiedAt: Date | undefined }> {
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const signal = settings.signal === undefined ? timeout : AbortSignal.any([settings.signal, timeout]);
  let current = start;
  try {
    for (let hop = 0; ; hop++) {
      const response = await fetch(current, { redirect: 'manual', signal, headers: { 'user-agent': 'folio' } });
      if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
        await response.body?.cancel();
        if (hop >= settings.maxRedirects) {
          throw new Permanent('FOLIO_TOO_MANY_REDIRECTS', `more than ${settings.maxRedirects} redirects (\`maxRedirects\`), last to ${current.href}`);
        }
        current = new URL(response.headers.get('location') as string, current);
        if (current.protocol !== 'http:' && current.protocol !== 'https:') {
          throw new Permanent('FOLIO_BAD_URL', `redirected to a non-HTTP URL ${current.href}`);
        }
        continue;
      }
      if (isTransientStatus(response.status)) {
        await response.body?.cancel();
        throw new Transient('FOLIO_HTTP_STATUS', `HTTP ${response.status} ${response.statusText}`.trim(), retryAfterMs(response.headers.get('retry-after')));
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new Permanent('FOLIO_HTTP_STATUS', `HTTP ${response.status} ${response.statusText}`.trim(), response.status);
      }
      const declared = Number(response.headers.get('content-length') ?? NaN);
      if (declared > settings.maxBytes) {
        await response.body?.cancel();
        throw new Permanent('FOLIO_TOO_LARGE', `the body is ${declared} bytes, more than \`maxBytes\` (${settings.maxBytes})`);
      }
      const bytes = await readBounded(response, settings.maxBytes);
      const lastModified = response.headers.get('last-modified');
      const modifiedAt = lastModified === null ? undefined : new Date(lastModified);
      return { bytes, finalUrl: current, modifiedAt: modifiedAt && !Number.isNaN(modifiedAt.getTime()) ? modifiedAt : undefined };
    }
  } catch (error) {
    if (error instanceof Transient || error instanceof Permanent) throw error;
    if (settings.signal?.aborted) throw error;
    if (timeout.aborted) throw new Transient('FOLIO_TIMEOUT', `no complete response within ${settings.timeoutMs} ms (\`timeoutMs\`)`);
    throw classifyNetworkError(error, current);
  }
}

async function readBounded(response: Response, maxBytes: number): Promise<Uint8Array> {
  if (response.body === null) return new Uint8Array(0);
  const parts: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new Permanent('FOLIO_TOO_LARGE', `the body is more than \`maxBytes\` (${maxBytes}) bytes`);
    }
    parts.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
}

/** undici wraps the socket error as `cause`; its code says whether a retry can help. */
function classifyNetworkError(error: unknown, url: URL): Error {
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause;
  const code = cause?.code ?? (error as { code?: string } | null)?.code ?? '';
  const detail = cause?.message ?? (error instanceof Error ? error.message : String(error));
  // The one policy decides what may pass (a refused connection: a server restarting); a name
  // that does not resolve or a network that cannot be reached will not.
  if (isTransientError(error)) {
    return code === 'ECONNREFUSED'
      ? new Transient('FOLIO_UNREACHABLE', `cannot reach ${url.host} (${code})`)
      : new Transient('FOLIO_CONNECTION_RESET', `connection to ${url.host} lost (${code || 'no code'}): ${detail}`);
  }
  if (code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return new Permanent('FOLIO_UNREACHABLE', `cannot reach ${url.host} (${code})`);
  }
  return new Permanent('FOLIO_FETCH_FAILED', `fetching ${url.href} failed: ${detail}`);
}

function lastSegment(url: URL): string {
  const segments = url.pathname.split('/').filter((s) => s !== '');
  const last = segments.at(-1);
  if (last === undefined) return url.hostname;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

function positive(name: string, value: number): void {
  if (!(typeof value === 'number' && Number.isFinite(value) && value > 0)) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`${name}\` to be a number above 0, got \`${String(value)}\` (${typeof value})`);
  }
}

function nonNegativeInteger(name: string, value: number): void {
  if (!(Number.isInteger(value) && value >= 0)) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`${name}\` to be an integer from 0 and up, got \`${String(value)}\` (${typeof value})`);
  }
}
