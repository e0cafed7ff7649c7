import assert from 'node:assert/strict';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SourceItem, UrlSourceOptions } from '../../connector/index.ts';
import { isSourceFailure, urlSource } from '../../connector/index.ts';

const PDF_BYTES = Buffer.from('%PDF-1.4\n% tiny\n');

async function one(url: string, options: UrlSourceOptions = {}): Promise<SourceItem> {
  for await (const item of urlSource([url], { retryDelayMs: 1, ...options })) return item;
  throw new Error('no item');
}

describe('urlSource', () => {
  let server: Server;
  let base: string;
  const hits = new Map<string, number>();
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === '/doc.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' }).end(PDF_BYTES);
    } else if (path === '/moved') {
      res.writeHead(302, { location: '/doc.pdf' }).end();
    } else if (path === '/loop') {
      res.writeHead(301, { location: '/loop' }).end();
    } else if (path === '/missing.pdf') {
      res.writeHead(404).end('not here');
    } else if (path === '/flaky.pdf') {
      // Fails twice with 503, then succeeds: a transient fault that a retry fixes.
      if ((hits.get(path) ?? 0) <= 2) res.writeHead(503).end();
      else res.writeHead(200).end(PDF_BYTES);
    } else if (path === '/always503') {
      res.writeHead(503).end();
    } else if (path === '/slow.pdf') {
      res.writeHead(200);
      res.write('%PDF-1.4\n');
      // Never ends: the client's timeout must fire.
    } else if (path === '/huge.pdf') {
      // No content-length: the limit must be enforced while streaming.
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 0x41);
      let sent = 0;
      const pump = (): void => {
        while (sent < 4 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    } else if (path === '/page.html') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
    } else if (path === '/blob.bin') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0, 1, 2, 3, 0xfe, 0xff]));
    } else if (path === '/reset.pdf') {
      req.socket.destroy();
    } else {
      res.writeHead(500).end();
    }
  };

  before(async () => {
    server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => hits.clear());

  it('fetches a document, sniffs it and names it by the last URL segment', async () => {
    const item = await one(`${base}/doc.pdf`);
    assert.ok(!isSourceFailure(item));
    assert.equal(item.mime, 'application/pdf');
    assert.equal(item.relativePath, 'doc.pdf');
    assert.equal(item.uri, `${base}/doc.pdf`);
    assert.deepEqual(Buffer.from(item.bytes), PDF_BYTES);
  });

  it('follows redirects', async () => {
    const item = await one(`${base}/moved`);
    assert.ok(!isSourceFailure(item));
    assert.equal(item.relativePath, 'doc.pdf');
  });

  it('stops a redirect loop after maxRedirects', async () => {
    const item = await one(`${base}/loop`, { maxRedirects: 3 });
    assert.ok(isSourceFailure(item));
    assert.equal(item.code, 'FOLIO_TOO_MANY_REDIRECTS');
    assert.equal(hits.get('/loop'), 4);
  });

  it('reports 404 without retrying', async () => {
    const item = await one(`${base}/missing.pdf`);
    assert.ok(isSourceFailure(item));
    assert.equal(item.code, 'FOLIO_HTTP_STATUS');
    assert.match(item.reason, /404/);
    assert.equal(hits.get('/missing.pdf'), 1);
  });

  it('retries 5xx a bounded number of times', async () => {
    const ok = await one(`${base}/flaky.pdf`, { retries: 2 });
    assert.ok(!isSourceFailure(ok));
    const failed = await one(`${base}/always503`, { retries: 2 });
    assert.ok(isSourceFailure(failed));
    assert.match(failed.reason, /503.*3 attempts/);
    assert.equal(hits.get('/always503'), 3);
  });

  it('times out a server that never finishes', async () => {
    const item = await one(`${base}/slow.pdf`, { timeoutMs: 300, retries: 0 });
    assert.ok(isSourceFailure(item));
    assert.equal(item.code, 'FOLIO_TIMEOUT');
  });

  it('stops reading a body over maxBytes', async () => {
    const item = await one(`${base}/huge.pdf`, { maxBytes: 1024 * 1024 });
    assert.ok(isSourceFailure(item));
    assert.equal(item.code, 'FOLIO_TOO_LARGE');
  });

  it('reports an unreachable port', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const item = await one(`http://127.0.0.1:${port}/x.pdf`, { retries: 0 });
    assert.ok(isSourceFailure(item));
    assert.equal(item.code, 'FOLIO_UNREACHABLE');
  });

  it('retries a reset connection, then reports it', async () => {
    const item = await one(`${base}/reset.pdf`, { retries: 1 });
    assert.ok(isSourceFailure(item));
    assert.equal(item.code, 'FOLIO_CONNECTION_RESET');
    assert.equal(hits.get('/reset.pdf'), 2);
  });

  it('reads a web page as HTML, and refuses unsupported content and bad URLs', async () => {
    const html = await one(`${base}/page.html`);
    assert.ok(!isSourceFailure(html) && html.mime === 'text/html');
    const blob = await one(`${base}/blob.bin`);
    assert.ok(isSourceFailure(blob));
    assert.equal(blob.code, 'FOLIO_UNSUPPORTED_TYPE');
    const bad = await one('ftp://example.org/a.pdf');
    assert.ok(isSourceFailure(bad));
    assert.equal(bad.code, 'FOLIO_BAD_URL');
  });

  it('rejects when cancelled', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await assert.rejects(one(`${base}/doc.pdf`, { signal: controller.signal }), /stop/);
  });

  it('validates options', async () => {
    await assert.rejects(one(`${base}/doc.pdf`, { timeoutMs: -1 }), /`timeoutMs`.*`-1`/);
  });
});
