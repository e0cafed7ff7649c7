import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import type { OcrEngine, PageImage } from '../../inference/engine.ts';
import { createPaddleEngine } from '../../inference/paddle/index.ts';
import { createRemoteEngine } from '../../inference/remote/index.ts';
import { type OcrServer, silentLogger, startOcrServer } from '../../server/index.ts';

async function memoPage(): Promise<PageImage> {
  const { data, info } = await sharp(await readFile('examples/docs/scanned-memo.png'))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { docId: 'memo', source: 'examples/docs/scanned-memo.png', pageNumber: 1, data, width: info.width, height: info.height, channels: 3 };
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const chat = (url: string, model = 'folio-paddle') => ({
  model,
  messages: [
    {
      role: 'user',
      content: [
        { type: 'image_url', image_url: { url } },
        { type: 'text', text: 'Transcribe' },
      ],
    },
  ],
});

describe('startOcrServer with the paddle engine', function () {
  this.timeout(120_000);
  let engine: OcrEngine;
  let server: OcrServer;
  let png: string;
  /** A small strip of the memo: keeps the queue and shutdown tests quick. */
  let strip: string;

  before(async () => {
    engine = await createPaddleEngine({});
    server = await startOcrServer({ engine, port: 0, token: 'let-me-in', log: silentLogger, queueLimit: 4 });
    png = `data:image/png;base64,${(await readFile('examples/docs/scanned-memo.png')).toString('base64')}`;
    const cut = await sharp(await readFile('examples/docs/scanned-memo.png'))
      .extract({ left: 100, top: 130, width: 1040, height: 110 })
      .png()
      .toBuffer();
    strip = `data:image/png;base64,${cut.toString('base64')}`;
  });
  after(async () => {
    await server.close();
    await engine.close();
  });

  it('should read a page sent by the remote engine (a real client against a real server)', async () => {
    const remote = createRemoteEngine({ urls: [server.url], model: 'folio-paddle', apiKey: 'let-me-in' });
    const [result] = await remote.recognize([await memoPage()]);
    assert.match(result!.markdown, /Quarterly Archive Review/i);
    assert.match(result!.markdown, /invoices/i);
  });

  it('should stream the answer as server-sent events ending in [DONE]', async () => {
    const remote = createRemoteEngine({ urls: [server.url], model: 'folio-paddle', apiKey: 'let-me-in', stream: true });
    const [result] = await remote.recognize([await memoPage()]);
    assert.match(result!.markdown, /Archive/);
  });

  it('should list its models and report health', async () => {
    const models = (await (await fetch(`${server.url}/v1/models`, { headers: { authorization: 'Bearer let-me-in' } })).json()) as { data: { id: string }[] };
    assert.deepEqual(
      models.data.map((m) => m.id),
      ['folio-paddle'],
    );
    const health = (await (await fetch(`${server.url}/health`)).json()) as { status: string };
    assert.equal(health.status, 'ok');
  });

  it('should refuse bad requests with a clear 4xx', async () => {
    const auth = { authorization: 'Bearer let-me-in' };
    const cases: [unknown, Record<string, string>, number, RegExp][] = [
      [chat(png), { authorization: 'Bearer wrong' }, 401, /bearer token/],
      [chat(png, 'gpt-9'), auth, 404, /model `gpt-9` is not served/],
      [chat('data:image/png;base64,'), auth, 400, /not valid base64|empty/],
      [chat('data:image/png;base64,@@@@'), auth, 400, /not valid base64/],
      [chat('data:application/pdf;base64,JVBERi0='), auth, 415, /unsupported image type/],
      [chat('data:image/png;base64,aGVsbG8gd29ybGQ='), auth, 400, /cannot be decoded/],
      [chat('https://example.org/page.png'), auth, 400, /base64 data URL/],
      ['{not json', auth, 400, /not valid JSON/],
      [{ model: 'folio-paddle', messages: [{ role: 'user', content: 'no image here' }] }, auth, 400, /no image found/],
    ];
    for (const [body, headers, status, message] of cases) {
      const response = await post(server.url, body, headers);
      const text = await response.text();
      assert.equal(response.status, status, text);
      assert.match(text, message);
    }
  });

  it('should refuse a 50 MB body with 413 without reading it all', async () => {
    const huge = 'A'.repeat(50 * 1024 * 1024 + 10);
    const response = await post(server.url, chat(`data:image/png;base64,${huge}`), { authorization: 'Bearer let-me-in' });
    assert.equal(response.status, 413);
  });

  it('should refuse an image over the pixel limit', async () => {
    const big = await sharp({ create: { width: 9000, height: 9000, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const small = await startOcrServer({ engine, port: 0, log: silentLogger, maxPixels: 1_000_000 });
    try {
      const response = await post(small.url, chat(`data:image/png;base64,${big.toString('base64')}`));
      assert.equal(response.status, 413);
      assert.match(await response.text(), /9000×9000/);
    } finally {
      await small.close();
    }
  });

  it('should answer 429 with Retry-After when its queue is full', async () => {
    const body = chat(strip);
    const responses = await Promise.all(Array.from({ length: 8 }, () => post(server.url, body, { authorization: 'Bearer let-me-in' })));
    const statuses = responses.map((r) => r.status);
    await Promise.all(responses.map((r) => r.arrayBuffer()));
    assert.ok(statuses.includes(429), `statuses: ${statuses}`);
    assert.ok(statuses.includes(200), `statuses: ${statuses}`);
    const limited = responses.find((r) => r.status === 429)!;
    assert.equal(limited.headers.get('retry-after'), '1');
  });

  it('should finish in-flight requests when closed', async () => {
    const own = await startOcrServer({ engine, port: 0, log: silentLogger });
    const pending = post(own.url, chat(strip));
    // Close only once the server holds the request.
    for (let load = 0; load === 0; ) load = ((await (await fetch(`${own.url}/health`)).json()) as { load: number }).load;
    const closed = own.close();
    const response = await pending;
    assert.equal(response.status, 200);
    assert.match(((await response.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content, /Archive/);
    await closed;
    await assert.rejects(fetch(`${own.url}/health`));
  });

  it('should survive a client that disconnects mid-request', async () => {
    const controller = new AbortController();
    const pending = fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      signal: controller.signal,
      headers: { 'content-type': 'application/json', authorization: 'Bearer let-me-in' },
      body: JSON.stringify(chat(strip)),
    });
    setTimeout(() => controller.abort(), 20);
    await assert.rejects(pending);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const health = await fetch(`${server.url}/health`);
    assert.equal(health.status, 200);
  });
});
