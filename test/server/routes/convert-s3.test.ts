/**
 * The convert view's `s3://bucket/key` sources through `POST /api/convert?source=…`, against a
 * real S3-compatible server (s3proxy) and the real pipeline: read when the server's environment
 * configures S3, refused with the reason when it does not, each bad address a clear 4xx.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { CreateBucketCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { OcrEngine } from '../../../inference/engine.ts';
import { createPaddleEngine } from '../../../inference/paddle/index.ts';
import { type OcrServer, silentLogger, startOcrServer } from '../../../server/index.ts';
import type { AppInfo, ConvertEvent, DocumentView } from '../../../server/routes/index.ts';
import { type S3Server, startS3Server } from '../../support/s3proxy.ts';

const auth = { authorization: 'Bearer k' };
const HANDBOOK = 's3://docs/manuals/folio-handbook.pdf';
const AWS = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_REGION', 'AWS_PROFILE', 'AWS_ENDPOINT_URL_S3', 'AWS_ENDPOINT_URL'] as const;

const convertSource = (server: OcrServer, source: string): Promise<Response> =>
  fetch(`${server.url}/api/convert?source=${encodeURIComponent(source)}`, { method: 'POST', headers: auth });

describe('POST /api/convert?source=s3://… (real s3proxy)', function () {
  this.timeout(120_000);
  let s3: S3Server;
  let client: S3Client;
  let engine: OcrEngine;
  let withS3: OcrServer;
  let withoutS3: OcrServer;
  const saved = Object.fromEntries(AWS.map((name) => [name, process.env[name]]));

  const setEnv = (values: Readonly<Partial<Record<(typeof AWS)[number], string>>>): void => {
    for (const name of AWS) {
      const value = values[name];
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };

  before(async function () {
    this.timeout(600_000);
    s3 = await startS3Server();
    client = s3.client();
    await client.send(new CreateBucketCommand({ Bucket: 'docs' }));
    await client.send(new PutObjectCommand({ Bucket: 'docs', Key: 'manuals/folio-handbook.pdf', Body: await readFile('examples/docs/folio-handbook.pdf') }));
    await client.send(new PutObjectCommand({ Bucket: 'docs', Key: 'manuals/blob.bin', Body: new Uint8Array([0, 1, 2, 3, 4, 5]) }));
    engine = await createPaddleEngine({});
    // The same process, two servers: one started with no S3 in its environment, one with.
    setEnv({});
    withoutS3 = await startOcrServer({ engine, port: 0, token: 'k', log: silentLogger, app: {} });
    setEnv({ ...s3.env, AWS_ENDPOINT_URL_S3: s3.endpoint });
    withS3 = await startOcrServer({ engine, port: 0, token: 'k', log: silentLogger, app: {} });
  });

  after(async () => {
    await withS3?.close();
    await withoutS3?.close();
    await engine?.close();
    client?.destroy();
    await s3?.remove();
    setEnv(saved as Partial<Record<(typeof AWS)[number], string>>);
  });

  it('should convert an S3 object like an upload, page by page, and keep its s3:// source', async () => {
    const info = (await (await fetch(`${withS3.url}/api/info`, { headers: auth })).json()) as AppInfo;
    assert.equal(info.s3, true);
    const response = await convertSource(withS3, HANDBOOK);
    assert.equal(response.status, 200, await response.clone().text());
    const events = (await response.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ConvertEvent);
    assert.deepEqual(
      events[0] && { type: events[0].type, name: events[0].type === 'started' && events[0].name, pages: events[0].type === 'started' && events[0].pages },
      {
        type: 'started',
        name: 'folio-handbook.pdf',
        pages: 3,
      },
    );
    assert.deepEqual(
      events.filter((e) => e.type === 'page').map((e) => e.type === 'page' && `${e.pageNumber}:${e.engine}`),
      ['1:text', '2:text', '3:text'],
    );
    const done = events.at(-1) as { type: string; document: DocumentView };
    assert.equal(done.type, 'done');
    assert.equal(done.document.source, HANDBOOK);
    assert.equal(done.document.pages.length, 3);
    assert.ok(done.document.pages[0]!.elements.some((e) => e.kind === 'heading' && e.text === 'Folio Handbook'));
    const markdown = await fetch(`${withS3.url}${done.document.downloads!.markdown}`, { headers: auth });
    assert.match(await markdown.text(), /^# Folio Handbook/m);
    const image = await fetch(`${withS3.url}/api/documents/${done.document.id}/pages/1`, { headers: auth });
    assert.equal(image.headers.get('content-type'), 'image/png');
  });

  it('should answer a bad or missing S3 object with a clear 4xx naming it', async () => {
    const cases: [string, number, RegExp][] = [
      ['s3://docs/manuals/missing.pdf', 404, /s3:\/\/docs\/manuals\/missing\.pdf/],
      ['s3://docs/manuals/', 400, /not the s3:\/\/bucket\/key address of one object/],
      ['s3://docs/manuals/*.pdf', 400, /not the s3:\/\/bucket\/key address of one object/],
      ['s3://docs/manuals/blob.bin', 415, /blob\.bin: unsupported content/],
      ['https://example.org/a.pdf', 400, /must be an s3:\/\/bucket\/key address/],
    ];
    for (const [source, status, message] of cases) {
      const response = await convertSource(withS3, source);
      const body = await response.text();
      assert.equal(response.status, status, `${source}: ${body}`);
      assert.match(body, message, source);
    }
  });

  it('should say the credentials were refused, as the server set-up is at fault', async () => {
    process.env['AWS_SECRET_ACCESS_KEY'] = 'not-the-secret';
    try {
      const response = await convertSource(withS3, HANDBOOK);
      assert.equal(response.status, 502);
      assert.match(await response.text(), /the S3 server refused the credentials/);
    } finally {
      process.env['AWS_SECRET_ACCESS_KEY'] = s3.env['AWS_SECRET_ACCESS_KEY'];
    }
  });

  it('should refuse s3:// sources when its own environment configures no S3, saying so', async () => {
    const info = (await (await fetch(`${withoutS3.url}/api/info`, { headers: auth })).json()) as AppInfo;
    assert.equal(info.s3, false);
    const response = await convertSource(withoutS3, HANDBOOK);
    assert.equal(response.status, 403);
    const body = (await response.json()) as { error: { message: string; type: string } };
    assert.equal(body.error.type, 's3_refused');
    assert.match(
      body.error.message,
      /refusing to read s3:\/\/docs\/manuals\/folio-handbook\.pdf: this server reads S3 only when its own environment configures it/,
    );
  });
});
