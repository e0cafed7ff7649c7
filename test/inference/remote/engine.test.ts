import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InferenceError } from '../../../core/errors.ts';
import type { PageImage } from '../../../inference/engine.ts';
import { backoffMs, createReaderEngine, createRemoteEngine, retryAfterMs } from '../../../inference/remote/index.ts';

const page = (n = 1, source = 'file:///doc.pdf'): PageImage => ({
  docId: 'd',
  source,
  pageNumber: n,
  data: new Uint8Array(8 * 8 * 3).fill(200),
  width: 8,
  height: 8,
  channels: 3,
});
const FAST = { retries: 3, baseDelayMs: 5, maxDelayMs: 50 };

/** A scripted server for fault injection: each request is answered by the next step. */
async function scripted(steps: ((req: IncomingMessage, res: ServerResponse) => void)[]): Promise<{ url: string; server: Server; requests: () => number }> {
  let i = 0;
  const server = createServer((req, res) => {
    req.resume();
    // Like vLLM builds without the listing: the engine then asks for its default model.
    if (req.url === '/v1/models') {
      res.writeHead(404).end();
      return;
    }
    req.on('end', () => steps[Math.min(i++, steps.length - 1)]!(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, requests: () => i };
}

const ok =
  (content: string) =>
  (_req: IncomingMessage, res: ServerResponse): void => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ choices: [{ message: { content } }], usage: { completion_tokens: 7 } }));
  };
const status =
  (code: number, headers: Record<string, string> = {}) =>
  (_req: IncomingMessage, res: ServerResponse): void => {
    res.writeHead(code, headers);
    res.end('{"error":"scripted"}');
  };
const drop = (req: IncomingMessage): void => void req.socket.destroy();

describe('createRemoteEngine', () => {
  const servers: Server[] = [];
  afterEach(() => servers.splice(0).forEach((s) => s.close()));

  it('should send an OpenAI chat request with the page as a PNG data URL at temperature 0', async () => {
    let body: { model: string; temperature: number; messages: { content: { type: string; image_url?: { url: string }; text?: string }[] }[] } | undefined;
    let auth: string | undefined;
    const server = createServer((req, res) => {
      let raw = '';
      auth = req.headers.authorization;
      req.on('data', (d: Buffer) => (raw += d));
      req.on('end', () => {
        body = JSON.parse(raw);
        ok('# Page')(req, res);
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const engine = createRemoteEngine({ urls: [`http://127.0.0.1:${(server.address() as AddressInfo).port}`], model: 'jina-ocr-v1', apiKey: 'secret' });
    const [result] = await engine.recognize([page()]);
    assert.equal(result?.markdown, '# Page');
    assert.equal(result?.stats.tokens, 7);
    assert.equal(body?.model, 'jina-ocr-v1');
    assert.equal(body?.temperature, 0);
    assert.match(body!.messages[0]!.content[0]!.image_url!.url, /^data:image\/png;base64,iVBOR/);
    assert.match(body!.messages[0]!.content[1]!.text!, /Transcribe the provided document image/);
    assert.equal(auth, 'Bearer secret');
  });

  it('should retry 429 (honouring Retry-After), 503 and dropped connections, and count the retries', async () => {
    const s = await scripted([status(429, { 'retry-after': '0' }), status(503), drop, ok('done')]);
    servers.push(s.server);
    const engine = createRemoteEngine({ urls: [s.url], retry: FAST });
    const [result] = await engine.recognize([page()]);
    assert.equal(result?.markdown, 'done');
    assert.equal(result?.stats.retries, 3);
    assert.equal(engine.stats.retries, 3);
    assert.equal(s.requests(), 4);
  });

  it('should retry a request that times out', async () => {
    const s = await scripted([() => undefined, ok('late but fine')]);
    servers.push(s.server);
    const engine = createRemoteEngine({ urls: [s.url], retry: FAST, timeoutMs: 150 });
    const [result] = await engine.recognize([page()]);
    assert.equal(result?.markdown, 'late but fine');
    assert.equal(result?.stats.retries, 1);
  });

  it('should not retry a non-transient rejection and should name the page', async () => {
    const s = await scripted([status(400)]);
    servers.push(s.server);
    const engine = createRemoteEngine({ urls: [s.url], retry: FAST });
    await assert.rejects(engine.recognize([page(7)]), (error: unknown) => {
      assert.ok(error instanceof InferenceError);
      assert.equal(error.code, 'FOLIO_REMOTE_REJECTED');
      assert.match(error.message, /doc\.pdf page 7/);
      return true;
    });
    assert.equal(s.requests(), 1);
  });

  it('should give up after the bounded retries with a clear error', async () => {
    const s = await scripted([status(503)]);
    servers.push(s.server);
    const engine = createRemoteEngine({ urls: [s.url], retry: FAST });
    await assert.rejects(engine.recognize([page()]), /failed after 3 retries: HTTP 503/);
    assert.equal(s.requests(), 4);
  });

  it('should move to another server when one is down, and balance pages across live ones', async () => {
    const a = await scripted([ok('from a')]);
    const b = await scripted([ok('from b')]);
    servers.push(a.server, b.server);
    // A port that was just free: connecting is refused, as with a server that is down.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const dead = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const engine = createRemoteEngine({ urls: [dead, a.url, b.url], retry: FAST });
    const results = await engine.recognize(Array.from({ length: 12 }, (_, i) => page(i + 1)));
    assert.equal(results.length, 12);
    assert.ok(results.every((r) => r.markdown === 'from a' || r.markdown === 'from b'));
    assert.ok(a.requests() > 0 && b.requests() > 0, `a ${a.requests()}, b ${b.requests()}`);
  });

  it('should finish every page on the surviving server when another is killed mid-run', async () => {
    const sockets = new Set<import('node:net').Socket>();
    const doomed = createServer((req, res) => {
      req.resume();
      setTimeout(() => ok('from doomed')(req, res), 30);
    });
    doomed.on('connection', (socket) => sockets.add(socket));
    const survivor = await scripted([(req, res) => setTimeout(() => ok('from survivor')(req, res), 30)]);
    servers.push(survivor.server);
    await new Promise<void>((resolve) => doomed.listen(0, '127.0.0.1', resolve));
    const engine = createRemoteEngine({ urls: [`http://127.0.0.1:${(doomed.address() as AddressInfo).port}`, survivor.url], concurrency: 2, retry: FAST });
    const run = engine.recognize(Array.from({ length: 20 }, (_, i) => page(i + 1)));
    setTimeout(() => {
      doomed.close();
      for (const socket of sockets) socket.destroy();
    }, 60);
    const results = await run;
    assert.equal(results.length, 20, 'no page lost');
    assert.ok(results.some((r) => r.markdown === 'from survivor'));
    assert.ok(engine.stats.retries > 0, 'the pages cut off were retried');
  });

  it('should keep at most `concurrency` requests in flight per server', async () => {
    let inFlight = 0;
    let peak = 0;
    const server = createServer((req, res) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      req.resume();
      setTimeout(() => {
        inFlight--;
        ok('x')(req, res);
      }, 20);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const engine = createRemoteEngine({ urls: [`http://127.0.0.1:${(server.address() as AddressInfo).port}`], concurrency: 3 });
    await engine.recognize(Array.from({ length: 10 }, (_, i) => page(i + 1)));
    assert.equal(peak, 3);
  });

  it('should stop when its AbortSignal fires', async () => {
    const s = await scripted([() => undefined]);
    servers.push(s.server);
    const engine = createRemoteEngine({ urls: [s.url], retry: FAST });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled by the user')), 50);
    await assert.rejects(engine.recognize([page()], { signal: controller.signal }), /cancelled by the user/);
  });

  it('should assemble a streamed (SSE) answer', async () => {
    const s = await scripted([
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"choices":[{"delta":{"content":"# Ti"}}]}\n\n');
        res.write('data: {"choices":[{"delta":{"content":"tle"}}]}\n\ndata: [DONE]\n\n');
        res.end();
      },
    ]);
    servers.push(s.server);
    const engine = createRemoteEngine({ urls: [s.url], stream: true });
    const [result] = await engine.recognize([page()]);
    assert.equal(result?.markdown, '# Title');
  });

  it('should refuse a configuration without servers', () => {
    assert.throws(() => createRemoteEngine({ urls: [] }), /at least one server/);
    assert.throws(() => createRemoteEngine({ urls: ['gpu-box:8000'] }), /http:\/\//);
  });
});

describe('createReaderEngine', () => {
  it('should ask the Reader API for one page of a document URL with the jina-ocr-v1 header', async () => {
    let seen: { url?: string; respondWith?: string; page?: string } = {};
    const server = createServer((req, res) => {
      seen = { url: req.url, respondWith: req.headers['x-respond-with'] as string, page: req.headers['x-page'] as string };
      res.end('## Page two');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const engine = createReaderEngine({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
      const [result] = await engine.recognize([page(2, 'https://example.org/report.pdf')]);
      assert.equal(result?.markdown, '## Page two');
      assert.deepEqual(seen, { url: '/https://example.org/report.pdf', respondWith: 'jina-ocr-v1', page: '2' });
      await assert.rejects(engine.recognize([page(1, 'file:///local.pdf')]), /http\(s\) URL/);
    } finally {
      server.close();
    }
  });
});

describe('retry policy', () => {
  it('should read Retry-After as seconds or as a date', () => {
    assert.equal(retryAfterMs('2'), 2000);
    assert.equal(retryAfterMs(new Date(Date.now() + 3000).toUTCString(), Date.now())! > 1000, true);
    assert.equal(retryAfterMs('soon'), undefined);
  });
  it('should grow the backoff ceiling exponentially and never wait less than Retry-After', () => {
    const policy = { retries: 5, baseDelayMs: 100, maxDelayMs: 1000 };
    assert.equal(
      backoffMs(policy, 1, undefined, () => 1),
      100,
    );
    assert.equal(
      backoffMs(policy, 3, undefined, () => 1),
      400,
    );
    assert.equal(
      backoffMs(policy, 10, undefined, () => 1),
      1000,
    );
    assert.equal(
      backoffMs(policy, 1, 700, () => 0),
      700,
    );
  });
});
