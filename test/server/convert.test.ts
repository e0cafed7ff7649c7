import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OcrEngine } from '../../inference/engine.ts';
import { createPaddleEngine } from '../../inference/paddle/index.ts';
import { isBlockedAddress } from '../../server/fetch-guard.ts';
import { type OcrServer, silentLogger, startOcrServer } from '../../server/index.ts';
import { makeDocx, p } from '../pipeline/formats/zip-writer.ts';
import { DOCX_MIME, email } from '../support/mail.ts';

interface ConvertBody {
  ok: boolean;
  source: string;
  doc_id: string;
  mime: string;
  markdown: string;
  pages: { page_number: number; engine: string; reason: string }[];
  elements: { kind: string; page_number: number; bbox?: number[] }[];
  chunks?: { text: string; doc_id: string; parent_id?: string; heading_path: string[]; pages: number[]; bboxes: unknown[]; vector?: number[] }[];
  failures: unknown[];
  attachments?: (Omit<ConvertBody, 'attachments' | 'error'> & { parent_id: string; depth: number; name: string })[];
  error?: { message: string; type: string };
}

async function convert(
  url: string,
  body: Buffer | string,
  type: string,
  query = '',
  headers: Record<string, string> = {},
): Promise<{ status: number; body: ConvertBody; headers: Headers }> {
  const response = await fetch(`${url}/v1/convert${query}`, {
    method: 'POST',
    headers: { 'content-type': type, authorization: 'Bearer t0ken', ...headers },
    body,
  });
  return { status: response.status, body: (await response.json()) as ConvertBody, headers: response.headers };
}

const json = (url: string, body: unknown) => convert(url, JSON.stringify(body), 'application/json');

/** A plain HTTP server on `host` answering every request with `handler`. */
async function listen(host: string, handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, url: `http://${host}:${(server.address() as AddressInfo).port}` };
}

describe('POST /v1/convert', function () {
  this.timeout(120_000);
  let engine: OcrEngine;
  let server: OcrServer;
  let pdf: Buffer;
  let png: Buffer;

  before(async () => {
    engine = await createPaddleEngine({});
    pdf = await readFile('examples/docs/folio-handbook.pdf');
    png = await readFile('examples/docs/scanned-memo.png');
  });
  after(async () => {
    await engine.close();
  });

  describe('without URL fetching', () => {
    before(async () => {
      server = await startOcrServer({ engine, port: 0, token: 't0ken', log: silentLogger, convertLimit: 2, convertQueue: { queueLimit: 2 } });
    });
    after(async () => {
      await server.close();
    });

    it('should convert a born-digital PDF sent as raw bytes from its text layer, with elements, boxes and chunks', async () => {
      const { status, body } = await convert(server.url, pdf, 'application/pdf', '?filename=handbook.pdf');
      assert.equal(status, 200, JSON.stringify(body.error));
      assert.equal(body.ok, true);
      assert.equal(body.mime, 'application/pdf');
      assert.ok(body.pages.length >= 1);
      assert.ok(
        body.pages.every((p) => p.engine === 'text'),
        JSON.stringify(body.pages),
      );
      assert.match(body.markdown, /^# /m);
      assert.ok(
        body.elements.some((e) => e.bbox?.length === 4),
        'some element has a box',
      );
      assert.ok((body.chunks ?? []).length > 0);
      assert.ok(body.chunks!.every((c) => c.pages.length > 0 && Array.isArray(c.heading_path) && c.vector === undefined));
    });

    it('should convert a Word file and a web page sent as raw bytes with their own content types', async () => {
      const docx = await readFile('../shared/data/formats-dev/docx/unit_test_headers.docx');
      const word = await convert(server.url, docx, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', '?filename=headers.docx');
      assert.equal(word.status, 200, JSON.stringify(word.body.error));
      assert.equal(word.body.ok, true);
      assert.equal(word.body.pages[0]?.engine, 'docx');
      assert.match(word.body.markdown, /^## Section 1$/m);
      assert.ok(
        (word.body.chunks ?? []).some((c) => c.heading_path[0] === 'Test Document'),
        JSON.stringify(word.body.chunks?.map((c) => c.heading_path)),
      );
      const page = await convert(
        server.url,
        '<html><body><h1>Hello</h1><table><tr><th colspan="2">Both</th></tr><tr><td>a</td><td>b</td></tr></table></body></html>',
        'text/html',
      );
      assert.equal(page.status, 200, JSON.stringify(page.body.error));
      assert.equal(page.body.mime, 'text/html');
      assert.match(page.body.markdown, /<th colspan="2">Both<\/th>/);
    });

    it('should answer an e-mail with its attachments, at every depth, each a document of its own naming its parent', async () => {
      const { stableId } = await import('../../core/hash.ts');
      const docx = makeDocx(p('Quarterly figures for the north region', { style: 'Heading1' }) + p('Revenue rose by a tenth over the quarter.'));
      const forwarded = email('Figures', [{ name: 'figures.docx', type: DOCX_MIME, bytes: docx }], 'Forwarding the figures.');
      const message = email('Quarter report', [
        { name: 'handbook.pdf', type: 'application/pdf', bytes: new Uint8Array(pdf) },
        { name: 'forwarded.eml', type: 'message/rfc822', bytes: new TextEncoder().encode(forwarded) },
      ]);
      const { status, body } = await convert(server.url, message, 'message/rfc822', '?filename=report.eml');
      assert.equal(status, 200, JSON.stringify(body.error));
      assert.equal(body.ok, true);
      assert.match(body.markdown, /Attachments:\W* handbook\.pdf, forwarded\.eml$/m);
      assert.doesNotMatch(body.markdown, /Folio Handbook|Revenue rose/, "the attachments' text is theirs, not the message's");
      assert.deepEqual(
        body.attachments?.map((a) => [a.name, a.depth, a.mime]),
        [
          ['handbook.pdf', 1, 'application/pdf'],
          ['forwarded.eml', 1, 'message/rfc822'],
          ['figures.docx', 2, DOCX_MIME],
        ],
        'one flat list, depth first',
      );
      const [handbook, mail, figures] = body.attachments!;
      assert.equal(handbook!.doc_id, stableId(body.doc_id, 'attachment', 'handbook.pdf'));
      assert.equal(handbook!.source, `${body.source}#attachment=handbook.pdf`);
      assert.equal(handbook!.parent_id, body.doc_id);
      assert.equal(mail!.parent_id, body.doc_id);
      assert.equal(figures!.parent_id, mail!.doc_id, 'the nested attachment names the forwarded message');
      assert.ok(handbook!.pages.every((page) => page.engine === 'text'));
      assert.match(handbook!.markdown, /^# Folio Handbook/m);
      assert.match(figures!.markdown, /Revenue rose by a tenth over the quarter\./);
      assert.doesNotMatch(mail!.markdown, /Revenue rose/);
      for (const attachment of body.attachments!) {
        assert.equal(attachment.ok, true, JSON.stringify(attachment.failures));
        assert.ok(attachment.elements.length > 0, `${attachment.name}: elements`);
        assert.ok((attachment.chunks ?? []).length > 0, `${attachment.name}: chunks`);
        assert.ok(
          attachment.chunks!.every((c) => c.doc_id === attachment.doc_id && c.parent_id === attachment.parent_id),
          `${attachment.name}: its chunks are its own and name its parent`,
        );
      }
      assert.ok(body.chunks!.every((c) => c.parent_id === undefined));
      const bare = await convert(server.url, message, 'message/rfc822', '?filename=report.eml&chunks=false');
      assert.equal(bare.body.attachments?.length, 3);
      assert.ok(
        bare.body.attachments!.every((a) => a.chunks === undefined),
        'chunks: false holds for the attachments too',
      );
      const plain = await convert(server.url, email('No files', [], 'Nothing attached.'), 'message/rfc822');
      assert.equal(plain.status, 200, JSON.stringify(plain.body.error));
      assert.equal(plain.body.attachments, undefined, 'no attachments, no field');
    });

    it('should give the same Markdown as the pipeline `folio convert` runs', async () => {
      const { processDocument } = await import('../../pipeline/run/process-document.ts');
      const { sha256, stableId } = await import('../../core/hash.ts');
      const bytes = new Uint8Array(pdf);
      const direct = await processDocument(
        { id: stableId('x'), uri: 'x', relativePath: 'x.pdf', mime: 'application/pdf', bytes, contentHash: sha256(bytes) },
        { engine: 'auto' },
      );
      const { body } = await json(server.url, { data: pdf.toString('base64'), chunks: false });
      assert.equal(body.markdown, direct.markdown);
      assert.equal(body.chunks, undefined, 'chunks: false leaves them out');
    });

    it('should OCR a scan sent as base64 JSON through the served engine', async () => {
      const { status, body } = await json(server.url, { data: png.toString('base64'), filename: 'memo.png' });
      assert.equal(status, 200, JSON.stringify(body.error));
      assert.equal(body.pages[0]!.engine, 'paddle');
      assert.match(body.markdown, /Quarterly Archive Review/i);
    });

    it('should refuse bad requests with a 4xx naming the problem', async () => {
      const cases: [Promise<{ status: number; body: ConvertBody }>, number, RegExp][] = [
        [json(server.url, { data: '***not base64***' }), 400, /`data` is not valid base64/],
        [json(server.url, { data: '' }), 400, /`data` is empty/],
        [json(server.url, {}), 400, /exactly one of `data`/],
        [json(server.url, { data: 'JVBERi0=', colour: 'red' }), 400, /unknown field `colour`/],
        [json(server.url, { data: pdf.toString('base64'), engine: 'tesseract' }), 400, /`engine` must be auto, text or paddle/],
        [json(server.url, { data: pdf.toString('base64'), embed: true }), 400, /no embedding model/],
        [json(server.url, { data: pdf.toString('base64'), chunks: 'yes' }), 400, /`chunks` must be true or false/],
        [convert(server.url, Buffer.from('hello'), 'application/zip'), 415, /unsupported Content-Type/],
        [convert(server.url, Buffer.from('not a pdf at all'), 'application/pdf', '?filename=broken.pdf'), 422, /broken\.pdf/],
      ];
      for (const [pending, status, message] of cases) {
        const { status: got, body } = await pending;
        assert.equal(got, status, `${message}: ${JSON.stringify(body)}`);
        assert.match(body.error!.message, message);
      }
    });

    it('should require the token, and serve its OpenAPI document without one', async () => {
      const { status } = await convert(server.url, pdf, 'application/pdf', '', { authorization: 'Bearer wrong' });
      assert.equal(status, 401);
      const spec = (await (await fetch(`${server.url}/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown> };
      assert.match(spec.openapi, /^3\./);
      assert.ok('/v1/convert' in spec.paths);
    });

    it('should refuse a URL while fetching is off', async () => {
      const { status, body } = await json(server.url, { url: 'https://example.org/a.pdf' });
      assert.equal(status, 403);
      assert.match(body.error!.message, /URL fetching is off/);
    });

    it("should queue conversions past its limit, turn away only those past the queue with 429 and the queue's wait, and advertise its limits", async () => {
      const health = (await (await fetch(`${server.url}/health`)).json()) as { convert: Record<string, number> };
      assert.deepEqual(
        { concurrency: health.convert['concurrency'], queue_limit: health.convert['queue_limit'], accepts: health.convert['accepts'] },
        { concurrency: 2, queue_limit: 2, accepts: 4 },
      );
      const all = await Promise.all(Array.from({ length: 6 }, () => json(server.url, { data: png.toString('base64') })));
      const statuses = all.map((r) => r.status).sort();
      // 2 convert, 2 wait their turn and convert too, 2 find the queue full.
      assert.deepEqual(statuses, [200, 200, 200, 200, 429, 429]);
      const busy = all.find((r) => r.status === 429)!;
      assert.match(busy.body.error!.message, /2 documents are queued \(limit 2\)/);
      // The wait of a full queue (2 ahead, 2 at a time, at least 1 s) rounded up to seconds.
      assert.ok(Number(busy.headers.get('retry-after')) >= 1, String(busy.headers.get('retry-after')));
    });
  });

  it('should hold every page to the one --max-pixels, and answer a document of which no page could be read with the reasons, not ok', async () => {
    const small = await startOcrServer({ engine, port: 0, log: silentLogger, maxPixels: 100_000 });
    try {
      const scan = await json(small.url, { data: png.toString('base64'), filename: 'memo.png' });
      assert.equal(scan.status, 422, JSON.stringify(scan.body));
      assert.match(scan.body.error!.message, /more than `maxPixels` 100000/);
      // A PDF page is rendered under the bound instead (a text-layer page needs no rendering).
      const { status, body } = await convert(small.url, pdf, 'application/pdf', '?filename=handbook.pdf');
      assert.equal(status, 200, JSON.stringify(body.error));
      assert.equal(body.ok, true);
    } finally {
      await small.close();
    }
  });

  describe('with URL fetching on', () => {
    let documents: { server: Server; url: string };
    let redirector: { server: Server; url: string };

    before(async () => {
      // The document store sits on 127.0.0.1, which no fetch may reach; the redirector sits on
      // 127.0.0.2, explicitly allowed (an "intranet" address), and points at the store.
      documents = await listen('127.0.0.1', (_req, res) => res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf));
      redirector = await listen('127.0.0.2', (req, res) => {
        if (req.url === '/ok.pdf') res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf);
        else res.writeHead(302, { location: req.url === '/to-metadata' ? 'http://169.254.169.254/latest/meta-data/' : `${documents.url}/a.pdf` }).end();
      });
      server = await startOcrServer({
        engine,
        port: 0,
        token: 't0ken',
        log: silentLogger,
        fetch: { allowHosts: ['127.0.0.2', '127.0.0.1', '169.254.169.254', 'localhost'], allowAddresses: ['127.0.0.2'], timeoutMs: 5_000 },
      });
    });
    after(async () => {
      await server.close();
      documents.server.close();
      redirector.server.close();
    });

    it('should fetch an allowed host at an allowed address', async () => {
      const { status, body } = await json(server.url, { url: `${redirector.url}/ok.pdf` });
      assert.equal(status, 200, JSON.stringify(body.error));
      assert.equal(body.source, `${redirector.url}/ok.pdf`);
      assert.ok(body.markdown.length > 0);
    });

    it('should refuse 127.0.0.1 and 169.254.169.254 even when on the host allow-list', async () => {
      for (const url of [`${documents.url}/a.pdf`, 'http://169.254.169.254/latest/meta-data/']) {
        const { status, body } = await json(server.url, { url });
        assert.equal(status, 403, url);
        assert.match(body.error!.message, /loopback, private or link-local/);
      }
    });

    it('should refuse a name that resolves to loopback (the check is on the resolved address)', async () => {
      const port = new URL(documents.url).port;
      const { status, body } = await json(server.url, { url: `http://localhost:${port}/a.pdf` });
      assert.equal(status, 403, JSON.stringify(body));
      assert.match(body.error!.message, /localhost resolves to .*loopback/);
    });

    it('should refuse a redirect to loopback or to the metadata address', async () => {
      for (const path of ['/to-store', '/to-metadata']) {
        const { status, body } = await json(server.url, { url: `${redirector.url}${path}` });
        assert.equal(status, 403, `${path}: ${JSON.stringify(body)}`);
        assert.match(body.error!.message, /(127\.0\.0\.1|169\.254\.169\.254).*loopback, private or link-local/);
      }
    });

    it('should refuse hosts off the allow-list and non-http schemes', async () => {
      for (const [url, message] of [
        ['http://example.invalid/a.pdf', /not on the allow-list/],
        ['file:///etc/passwd', /only http and https/],
      ] as const) {
        const { status, body } = await json(server.url, { url });
        assert.equal(status, 403, url);
        assert.match(body.error!.message, message);
      }
    });
  });

  it('should put vectors on chunks when asked and the server embeds', async () => {
    const { createLocalEmbedder } = await import('../../inference/embed/index.ts');
    const embedder = await createLocalEmbedder({});
    const embedding = await startOcrServer({ engine, port: 0, token: 't0ken', log: silentLogger, embedder });
    try {
      const { status, body } = await convert(embedding.url, pdf, 'application/pdf', '?embed=true');
      assert.equal(status, 200, JSON.stringify(body.error));
      assert.ok(body.chunks!.length > 0);
      assert.ok(
        body.chunks!.every((c) => c.vector?.length === embedder.dims),
        "every chunk has a vector of the model's size",
      );
    } finally {
      await embedding.close();
      await embedder.close();
    }
  });

  it('should block private, loopback, link-local and mapped addresses and let public ones through', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '0.0.0.0',
      '100.64.0.1',
    ]) {
      assert.equal(isBlockedAddress(address), true, address);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111']) assert.equal(isBlockedAddress(address), false, address);
    assert.equal(isBlockedAddress('10.0.0.5', ['10.0.0.5']), false, 'an explicit exception');
  });
});
