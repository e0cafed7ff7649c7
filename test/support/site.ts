/**
 * A small website served on 127.0.0.1 for crawl tests: pages by path, each with an ETag and a
 * Last-Modified date and answering conditional requests with 304, redirects, statuses, and a
 * log of every request (path and the validators sent) so tests can say what was fetched.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type SiteEntry =
  | { readonly body: string | Uint8Array; readonly type?: string }
  | { readonly redirect: string; readonly status?: number }
  | { readonly status: number };

export interface SiteRequest {
  readonly path: string;
  readonly ifNoneMatch: string | undefined;
  readonly userAgent: string | undefined;
}

export interface TestSite {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  readonly origin: string;
  /** Path → what it answers; change it between crawls. */
  readonly pages: Map<string, SiteEntry>;
  readonly requests: SiteRequest[];
  close(): Promise<void>;
}

const LAST_MODIFIED = 'Wed, 02 Dec 2026 00:00:00 GMT';

/** @example const site = await startSite({ '/': { body: '<a href="/a.html">a</a>' } }) */
export async function startSite(pages: Readonly<Record<string, SiteEntry>>): Promise<TestSite> {
  const map = new Map(Object.entries(pages));
  const requests: SiteRequest[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    const ifNoneMatch = req.headers['if-none-match'];
    requests.push({ path, ifNoneMatch, userAgent: req.headers['user-agent'] });
    const entry = map.get(path.split('#')[0]!);
    if (entry === undefined) {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>Not found</h1>');
      return;
    }
    if ('redirect' in entry) {
      res.writeHead(entry.status ?? 302, { location: entry.redirect });
      res.end();
      return;
    }
    if (!('body' in entry)) {
      res.writeHead(entry.status);
      res.end();
      return;
    }
    const body = typeof entry.body === 'string' ? Buffer.from(entry.body) : Buffer.from(entry.body);
    const etag = `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;
    if (ifNoneMatch === etag) {
      res.writeHead(304, { etag });
      res.end();
      return;
    }
    const type =
      entry.type ?? (path.endsWith('.pdf') ? 'application/pdf' : path.endsWith('.txt') || path.endsWith('.xml') ? 'text/plain' : 'text/html; charset=utf-8');
    res.writeHead(200, { 'content-type': type, etag, 'last-modified': LAST_MODIFIED, 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    pages: map,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
