/**
 * One GET of a crawl, guarded: http(s) only, redirects followed by hand and only within the site
 * and what robots.txt allows, the address connected to checked in the socket's own `lookup`
 * (a public site cannot send the crawler into private addresses, by a redirect or by DNS), the
 * body capped while it streams, one request at a time per host at the pace asked, validators sent
 * for a conditional request, transient faults retried by `core/retry.ts`.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isTransientStatus, RetriesExhausted, retryAfterMs, withRetry } from '../core/retry.ts';
import { sleep } from '../core/sleep.ts';
import { isBlockedAddress } from '../server/fetch-guard.ts';
import { sameSite } from './crawl-url.ts';

export interface CrawlFetchSettings {
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly maxRedirects: number;
  readonly retries: number;
  readonly retryDelayMs: number;
  readonly userAgent: string;
  /** Loopback and private addresses may be connected to (the site itself is on one). */
  readonly allowPrivate: boolean;
  readonly signal: AbortSignal | undefined;
}

/** Validators of an earlier fetch, sent as `If-None-Match` / `If-Modified-Since`. */
export interface Validators {
  readonly etag?: string | undefined;
  readonly lastModified?: string | undefined;
}

export type CrawlResponse =
  | {
      readonly kind: 'ok';
      readonly url: string;
      readonly bytes: Uint8Array;
      readonly contentType: string;
      readonly etag: string | undefined;
      readonly lastModified: string | undefined;
    }
  | { readonly kind: 'not-modified'; readonly url: string }
  | { readonly kind: 'gone'; readonly url: string; readonly status: number }
  | { readonly kind: 'failed'; readonly code: string; readonly reason: string; readonly transient: boolean };

/** One request at a time per host, `intervalMs` between starts. */
export class HostPacer {
  readonly #next = new Map<string, number>();

  async wait(host: string, intervalMs: number, signal?: AbortSignal): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.#next.get(host) ?? 0);
    this.#next.set(host, at + intervalMs);
    if (at > now) await sleep(at - now, signal);
  }
}

class Transient extends Error {
  readonly code: string;
  readonly retryAfterMs: number | undefined;
  constructor(code: string, message: string, retryAfter?: number) {
    super(message);
    this.code = code;
    this.retryAfterMs = retryAfter;
  }
}

interface Hop {
  readonly status: number;
  readonly location: string | undefined;
  readonly bytes: Uint8Array;
  readonly contentType: string;
  readonly etag: string | undefined;
  readonly lastModified: string | undefined;
}

/**
 * GET `url` for a crawl of `site` (an origin). `mayFetch` says whether robots.txt allows a URL.
 *
 * @example
 * const response = await crawlFetch(url, site, settings, pacer, () => 500, (u) => robots.allowed(u));
 */
export async function crawlFetch(
  url: string,
  site: string,
  settings: Readonly<CrawlFetchSettings>,
  pacer: HostPacer,
  intervalMs: () => number,
  mayFetch: (url: string) => boolean,
  validators: Readonly<Validators> = {},
): Promise<CrawlResponse> {
  let current = url;
  for (let hop = 0; ; hop++) {
    let answer: Hop;
    try {
      const target = current;
      answer = await withRetry(
        async () => {
          await pacer.wait(new URL(target).host, intervalMs(), settings.signal);
          return getOnce(target, settings, hop === 0 ? validators : {});
        },
        {
          retries: settings.retries,
          baseDelayMs: settings.retryDelayMs,
          maxDelayMs: 30_000,
          isTransient: (error) => error instanceof Transient,
          signal: settings.signal,
        },
      );
    } catch (caught) {
      if (settings.signal?.aborted) throw settings.signal.reason;
      const error = caught instanceof RetriesExhausted ? caught.cause : caught;
      const tries = caught instanceof RetriesExhausted ? ` (after ${caught.attempts} attempts)` : '';
      const code = (error as { code?: unknown }).code;
      return {
        kind: 'failed',
        code: typeof code === 'string' && code.startsWith('FOLIO_') ? code : 'FOLIO_FETCH_FAILED',
        reason: `${url}: ${error instanceof Error ? error.message : String(error)}${tries}`,
        transient: error instanceof Transient,
      };
    }
    if (answer.status >= 300 && answer.status < 400 && answer.status !== 304 && answer.location !== undefined) {
      if (hop >= settings.maxRedirects) {
        return {
          kind: 'failed',
          code: 'FOLIO_TOO_MANY_REDIRECTS',
          reason: `${url}: more than ${settings.maxRedirects} redirects, last to ${current}`,
          transient: false,
        };
      }
      let next: string;
      try {
        next = new URL(answer.location, current).href;
      } catch {
        return { kind: 'failed', code: 'FOLIO_BAD_URL', reason: `${url}: redirected to an invalid URL ${answer.location}`, transient: false };
      }
      if (!sameSite(next, site))
        return { kind: 'failed', code: 'FOLIO_BAD_URL', reason: `${url}: redirected off the site to ${next}; not followed`, transient: false };
      if (!mayFetch(next))
        return { kind: 'failed', code: 'FOLIO_BAD_URL', reason: `${url}: redirected to ${next}, which robots.txt disallows`, transient: false };
      current = next;
      continue;
    }
    if (answer.status === 304) return { kind: 'not-modified', url: current };
    if (answer.status === 404 || answer.status === 410) return { kind: 'gone', url: current, status: answer.status };
    if (answer.status !== 200) return { kind: 'failed', code: 'FOLIO_HTTP_STATUS', reason: `${url}: HTTP ${answer.status}`, transient: false };
    return { kind: 'ok', url: current, bytes: answer.bytes, contentType: answer.contentType, etag: answer.etag, lastModified: answer.lastModified };
  }
}

function getOnce(url: string, settings: Readonly<CrawlFetchSettings>, validators: Readonly<Validators>): Promise<Hop> {
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (!settings.allowPrivate && isIP(host) !== 0 && isBlockedAddress(host)) {
    return Promise.reject(
      Object.assign(new Error(`${host} is a loopback, private or link-local address; not fetched for a public site`), { code: 'FOLIO_BAD_URL' }),
    );
  }
  const headers: Record<string, string> = {
    'user-agent': settings.userAgent,
    accept: 'text/html,application/xhtml+xml,application/pdf,text/markdown,text/plain,*/*;q=0.5',
  };
  if (validators.etag !== undefined) headers['if-none-match'] = validators.etag;
  if (validators.lastModified !== undefined) headers['if-modified-since'] = validators.lastModified;
  const request = parsed.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Hop>((resolve, reject) => {
    const req = request(
      parsed,
      { method: 'GET', headers, timeout: settings.timeoutMs, lookup: guardedLookup(settings.allowPrivate), signal: settings.signal },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        const header = (name: string): string | undefined => {
          const value = res.headers[name];
          return Array.isArray(value) ? value[0] : value;
        };
        if (isTransientStatus(status)) {
          res.resume();
          reject(new Transient('FOLIO_HTTP_STATUS', `HTTP ${status}`, retryAfterMs(header('retry-after'))));
          return;
        }
        const base = {
          status,
          location: header('location'),
          contentType: header('content-type') ?? '',
          etag: header('etag'),
          lastModified: header('last-modified'),
        };
        if (status !== 200) {
          res.resume();
          resolve({ ...base, bytes: new Uint8Array(0) });
          return;
        }
        const declared = Number(header('content-length') ?? Number.NaN);
        if (declared > settings.maxBytes) {
          req.destroy();
          reject(Object.assign(new Error(`the body is ${declared} bytes, more than \`maxBytes\` (${settings.maxBytes})`), { code: 'FOLIO_TOO_LARGE' }));
          return;
        }
        const parts: Buffer[] = [];
        let size = 0;
        res.on('data', (part: Buffer) => {
          size += part.length;
          if (size > settings.maxBytes) {
            req.destroy();
            reject(Object.assign(new Error(`the body is more than \`maxBytes\` (${settings.maxBytes}) bytes`), { code: 'FOLIO_TOO_LARGE' }));
            return;
          }
          parts.push(part);
        });
        res.on('end', () => resolve({ ...base, bytes: new Uint8Array(Buffer.concat(parts)) }));
        res.on('error', (error) => reject(new Transient('FOLIO_CONNECTION_RESET', `connection lost: ${error.message}`)));
      },
    );
    req.on('timeout', () => req.destroy(new Transient('FOLIO_TIMEOUT', `no complete response within ${settings.timeoutMs} ms (\`timeoutMs\`)`)));
    req.on('error', (error: Error & { code?: string }) => {
      if (error instanceof Transient || error.code === 'FOLIO_BAD_URL' || error.code === 'FOLIO_TOO_LARGE') reject(error);
      else if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN'].includes(error.code ?? '')) {
        reject(new Transient(error.code === 'ECONNREFUSED' ? 'FOLIO_UNREACHABLE' : 'FOLIO_CONNECTION_RESET', `cannot reach ${parsed.host} (${error.code})`));
      } else
        reject(Object.assign(new Error(`cannot fetch: ${error.message}`), { code: error.code === 'ENOTFOUND' ? 'FOLIO_UNREACHABLE' : 'FOLIO_FETCH_FAILED' }));
    });
    req.end();
  });
}

/** Resolve, then refuse loopback, private and link-local addresses unless the site is on one. */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const usable = allowPrivate ? addresses : addresses.filter((a) => !isBlockedAddress(a.address));
      if (usable.length === 0) {
        const refused = Object.assign(
          new Error(`${hostname} resolves to ${addresses.map((a) => a.address).join(', ')}, a private address; not fetched for a public site`),
          {
            code: 'FOLIO_BAD_URL',
          },
        );
        return callback(refused as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}

/** Whether the crawl may connect to private addresses: only when the site itself resolves to one. */
export async function siteIsPrivate(site: string): Promise<boolean> {
  const host = new URL(site).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return isBlockedAddress(host);
  try {
    const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
      dnsLookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found))),
    );
    return addresses.some((a) => isBlockedAddress(a.address));
  } catch {
    return false;
  }
}
