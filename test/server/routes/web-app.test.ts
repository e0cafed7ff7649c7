/**
 * The app's JSON API without a browser and without Elasticsearch: conversion as a stream of
 * events, downloads, and the clear 4xx of each bad request. (The browser test covers the rest.)
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { OcrEngine } from '../../../inference/engine.ts';
import { createPaddleEngine } from '../../../inference/paddle/index.ts';
import { type OcrServer, silentLogger, startOcrServer } from '../../../server/index.ts';
import type { ConvertEvent, DocumentView } from '../../../server/routes/index.ts';
import { makeDocx, p } from '../../pipeline/formats/zip-writer.ts';
import { DOCX_MIME, email } from '../../support/mail.ts';

const auth = { authorization: 'Bearer k' };

async function convert(url: string, name: string, body: Uint8Array | string): Promise<ConvertEvent[]> {
  const response = await fetch(`${url}/api/convert?name=${encodeURIComponent(name)}`, { method: 'POST', headers: auth, body });
  assert.equal(response.status, 200, await response.clone().text());
  assert.match(response.headers.get('content-type') ?? '', /application\/x-ndjson/);
  return (await response.text())
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ConvertEvent);
}

describe('createWebApp (the API, no Elasticsearch)', function () {
  this.timeout(60_000);
  let engine: OcrEngine;
  let server: OcrServer;

  before(async () => {
    engine = await createPaddleEngine({});
    server = await startOcrServer({ engine, port: 0, token: 'k', log: silentLogger, app: { maxUploadBytes: 64 * 1024, s3: false } });
  });
  after(async () => {
    await server.close();
    await engine.close();
  });

  it('should stream a conversion page by page and keep the result for download', async () => {
    const events = await convert(server.url, 'invoice.md', await readFile('examples/docs/invoice-ocr.md'));
    assert.equal(events[0]!.type, 'started');
    const pages = events.filter((e) => e.type === 'page');
    assert.ok(pages.length >= 1);
    assert.deepEqual(
      pages.map((e) => e.type === 'page' && e.done),
      pages.map((_, i) => i + 1),
    );
    const done = events.at(-1)!;
    assert.equal(done.type, 'done');
    const view = (done as { document: DocumentView }).document;
    assert.equal(view.origin, 'converted');
    assert.equal(view.mime, 'text/markdown');
    assert.ok(view.pages.flatMap((p) => p.elements).some((e) => e.kind === 'table'));
    const again = (await (await fetch(`${server.url}/api/documents/${view.id}`, { headers: auth })).json()) as DocumentView;
    assert.deepEqual(again, view);
    const markdown = await fetch(`${server.url}${view.downloads!.markdown}`, { headers: auth });
    assert.match(markdown.headers.get('content-disposition') ?? '', /filename="invoice\.md"/);
    assert.match(await markdown.text(), /Atlas Print/);
    const json = (await (await fetch(`${server.url}${view.downloads!.json}`, { headers: auth })).json()) as { source: string; elements: unknown[] };
    assert.equal(json.source, 'invoice.md');
    assert.ok(json.elements.length > 0);
  });

  it("should list an e-mail's attachments in its view, with their text", async () => {
    const docx = makeDocx(p('Garden plan', { style: 'Heading1' }) + p('The east border gets heliotrope this spring.'));
    const events = await convert(server.url, 'plans.eml', email('Plans', [{ name: 'garden.docx', type: DOCX_MIME, bytes: docx }]));
    const done = events.at(-1) as { type: string; document: DocumentView };
    assert.equal(done.type, 'done');
    assert.deepEqual(
      done.document.attachments?.map((a) => [a.name, a.depth, a.ok]),
      [['garden.docx', 1, true]],
    );
    assert.match(done.document.attachments![0]!.markdown, /heliotrope/);
    assert.ok(done.document.pages.flatMap((page) => page.elements).every((e) => !/heliotrope/.test(e.text)));
  });

  it('should report a corrupt document in the stream, naming it', async () => {
    const events = await convert(server.url, 'broken.pdf', '%PDF-1.7\nthis is not a PDF body');
    const done = events.at(-1) as { type: string; document: DocumentView };
    assert.equal(done.type, 'done');
    assert.equal(done.document.status, 'failed');
    assert.match(done.document.failures[0]!.reason, /broken\.pdf/);
  });

  it('should answer bad requests with a clear 4xx', async () => {
    const cases: [string, RequestInit, number, RegExp][] = [
      ['/api/convert?name=notes.docx', { method: 'POST', body: 'PK\u0003\u0004 zip bytes' }, 415, /notes\.docx: unsupported content/],
      ['/api/convert?name=empty.pdf', { method: 'POST', body: '' }, 400, /empty\.pdf: the file is empty/],
      ['/api/convert?name=big.pdf', { method: 'POST', body: new Uint8Array(70 * 1024) }, 413, /the upload (is|exceeds)/],
      ['/api/search?q=nut', {}, 503, /no Elasticsearch: start folio serve with --es URL/],
      ['/api/documents/0123456789abcdef0123', {}, 404, /no Elasticsearch to look the document up in/],
      ['/api/documents/bad%20id', {}, 400, /is not a document id/],
      ['/api/documents/0123456789abcdef0123/events', {}, 404, /no Elasticsearch to look the document up in/],
      ['/api/convert?source=s3%3A%2F%2Fdocs%2Fa.pdf', { method: 'POST' }, 403, /refusing to read s3:\/\/docs\/a\.pdf: this server reads S3 only when/],
      ['/api/conversions/cnotthere/markdown', {}, 404, /no conversion `cnotthere`/],
      ['/api/nothing', {}, 404, /no API route for GET \/api\/nothing/],
      ['/api/documents/%E0%A4%A', {}, 400, /not valid percent-encoding/],
      ['/app/%E0%A4%A', {}, 404, /no app file/],
    ];
    for (const [path, init, status, message] of cases) {
      const response = await fetch(`${server.url}${path}`, { ...init, headers: auth });
      const text = await response.text();
      assert.equal(response.status, status, `${path}: ${text}`);
      assert.match(text, message, path);
    }
    assert.deepEqual(await (await fetch(`${server.url}/api/info`, { headers: auth })).json(), {
      index: 'folio-chunks',
      search: false,
      knn: false,
      llm: false,
      engine: 'paddle',
      s3: false,
    });
  });

  it('should render a page of a converted PDF and say which pages do not exist', async () => {
    const events = await convert(server.url, 'handbook.pdf', await readFile('examples/docs/folio-handbook.pdf'));
    assert.deepEqual(events[0], { type: 'started', id: (events[0] as { id: string }).id, name: 'handbook.pdf', pages: 3 });
    const id = (events.at(-1) as { id: string }).id;
    const png = await fetch(`${server.url}/api/documents/${id}/pages/2`, { headers: auth });
    assert.equal(png.status, 200);
    assert.equal(png.headers.get('content-type'), 'image/png');
    const bytes = new Uint8Array(await png.arrayBuffer());
    assert.deepEqual([...bytes.slice(1, 4)], [0x50, 0x4e, 0x47]);
    const missing = await fetch(`${server.url}/api/documents/${id}/pages/4`, { headers: auth });
    assert.equal(missing.status, 404);
    assert.match(await missing.text(), /handbook\.pdf has 3 pages; there is no page 4/);
  });
});
