/**
 * Fetching a document for `POST /v1/convert` without opening a way in to the server's
 * neighbours (SSRF). Only hosts on an allow-list are asked; the address actually connected to is
 * checked (DNS is resolved by us, inside the socket's `lookup`, so a name cannot resolve to a
 * public address for the check and a private one for the connection); every redirect hop is
 * checked again; the body is capped while it streams.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { HttpError } from './http-error.ts';

export interface FetchGuardOptions {
  /** Host names (exact, lowercase) or `*.example.org` suffixes that may be fetched from. */
  readonly allowHosts: readonly string[];
  /**
   * Private, loopback or link-local addresses that may be connected to all the same (an
   * intranet document store). Exact addresses only. @default []
   */
  readonly allowAddresses?: readonly string[];
  /** @default 50 MiB */
  readonly maxBytes?: number;
  /** @default 30000 */
  readonly timeoutMs?: number;
  /** @default 3 */
  readonly maxRedirects?: number;
}

export interface FetchedDocument {
  /** The URL the bytes came from, after redirects. */
  readonly url: string;
  readonly bytes: Uint8Array;
  readonly contentType: string | undefined;
}

/** Addresses no fetched URL may reach: loopback, private, link-local, CGNAT, unspecified, multicast, ULA. */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv6');

/** `::ffff:127.0.0.1` is 127.0.0.1: check the IPv4 inside a mapped address. */
function unmapped(address: string): string {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return match ? match[1]! : address;
}

/** True when `address` is one a fetch must not reach (unless explicitly allowed). */
export function isBlockedAddress(address: string, allowAddresses: readonly string[] = []): boolean {
  const plain = unmapped(address);
  if (allowAddresses.includes(plain)) return false;
  const family = isIP(plain);
  if (family === 0) return true;
  return BLOCKED.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}

function hostAllowed(host: string, allowHosts: readonly string[]): boolean {
  const name = host.toLowerCase();
  return allowHosts.some((entry) => {
    const rule = entry.toLowerCase();
    return rule.startsWith('*.') ? name.endsWith(rule.slice(1)) : name === rule;
  });
}

const refused = (url: string, why: string): HttpError => new HttpError(403, 'url_refused', `refusing to fetch ${url}: ${why}`);

/** A `lookup` that resolves, then refuses blocked addresses: the check sits on the connection itself. */
function guardedLookup(url: string, allowAddresses: readonly string[]): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const usable = addresses.filter((a) => !isBlockedAddress(a.address, allowAddresses));
      if (usable.length === 0) {
        const found = addresses.map((a) => a.address).join(', ');
        return callback(refused(url, `${hostname} resolves to ${found}, a loopback, private or link-local address`) as unknown as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}

/**
 * GET `url` under the guard's rules; every refusal is a 403 `url_refused`, every fetch problem a
 * 422 `fetch_failed` naming the URL and the reason.
 *
 * @example
 * const { bytes } = await guardedFetch('https://docs.example.org/a.pdf', { allowHosts: ['docs.example.org'] })
 */
export async function guardedFetch(url: string, options: Readonly<FetchGuardOptions>): Promise<FetchedDocument> {
  const { allowHosts, allowAddresses = [], maxBytes = 50 * 1024 * 1024, timeoutMs = 30_000, maxRedirects = 3 } = options;
  let current = url;
  for (let hop = 0; hop <= maxRedirects; hop++) {
    const response = await getOnce(current, { allowHosts, allowAddresses, maxBytes, timeoutMs });
    if (response.location === undefined) return { url: current, bytes: response.bytes, contentType: response.contentType };
    current = new URL(response.location, current).toString();
  }
  throw new HttpError(422, 'fetch_failed', `${url}: more than ${maxRedirects} redirects`);
}

interface Hop {
  readonly bytes: Uint8Array;
  readonly contentType: string | undefined;
  readonly location?: string;
}

function getOnce(url: string, options: Required<Omit<FetchGuardOptions, 'maxRedirects'>>): Promise<Hop> {
  const { allowHosts, allowAddresses, maxBytes, timeoutMs } = options;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new HttpError(400, 'invalid_request_error', `\`url\` is not a valid URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw refused(url, `only http and https URLs are fetched, not ${parsed.protocol}`);
  if (parsed.username !== '' || parsed.password !== '') throw refused(url, 'URLs with credentials are not fetched');
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (!hostAllowed(host, allowHosts)) throw refused(url, `host ${host} is not on the allow-list (${allowHosts.join(', ') || 'empty'})`);
  // A literal address never goes through `lookup`: check it here.
  if (isIP(host) !== 0 && isBlockedAddress(host, allowAddresses)) throw refused(url, `${host} is a loopback, private or link-local address`);

  const request = parsed.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Hop>((resolve, reject) => {
    const req = request(
      parsed,
      { method: 'GET', lookup: guardedLookup(url, allowAddresses), timeout: timeoutMs, headers: { accept: '*/*', 'user-agent': 'folio-serve' } },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          resolve({ bytes: new Uint8Array(), contentType: undefined, location: res.headers.location });
          return;
        }
        if (status !== 200) {
          res.resume();
          reject(new HttpError(422, 'fetch_failed', `${url} answered HTTP ${status}`));
          return;
        }
        const parts: Buffer[] = [];
        let size = 0;
        res.on('data', (part: Buffer) => {
          size += part.length;
          if (size > maxBytes) {
            req.destroy();
            reject(new HttpError(413, 'request_too_large', `${url} is larger than ${maxBytes} bytes`));
            return;
          }
          parts.push(part);
        });
        res.on('end', () => resolve({ bytes: new Uint8Array(Buffer.concat(parts)), contentType: res.headers['content-type'] }));
        res.on('error', (error) => reject(new HttpError(422, 'fetch_failed', `${url}: ${error.message}`)));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (error) => reject(error instanceof HttpError ? error : new HttpError(422, 'fetch_failed', `${url}: ${error.message}`)));
    req.end();
  });
}
