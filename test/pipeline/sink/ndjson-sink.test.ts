import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Chunk, FailureRecord } from '../../../core/types.ts';
import { installMappings } from '../../../mappings/index.ts';
import { createNdjsonSink, NDJSON_FILES } from '../../../pipeline/sink/index.ts';
import { makeChunks } from '../../support/chunks.ts';
import { esClient, throwawayIndex } from '../../support/elasticsearch.ts';

describe('createNdjsonSink', () => {
  let outDir = '';
  beforeEach(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'folio-ndjson-'));
  });
  afterEach(async () => {
    await rm(outDir, { recursive: true, force: true });
  });

  const lines = async (name: string): Promise<string[]> => (await readFile(join(outDir, name), 'utf8')).split('\n').filter((line) => line !== '');

  it('should write bulk actions, chunks, failures and documents', async () => {
    const sink = await createNdjsonSink({ outDir, index: 'my-chunks' });
    const chunks = makeChunks(3, { docId: 'doc-n', vector: [0.5, 0.25, 1] });
    for (const chunk of chunks) await sink.write(chunk);
    const failure: FailureRecord = {
      source: 'file:///x.pdf',
      docId: 'x',
      pageNumber: 2,
      stage: 'ocr',
      code: 'FOLIO_OCR_FAILED',
      reason: 'x.pdf page 2: engine timed out',
      at: '2026-01-01T00:00:00.000Z',
    };
    await sink.fail(failure);
    await sink.markDocument({ docId: 'doc-n', source: chunks[0]!.source, contentHash: 'h', pages: 3, chunks: 3, status: 'indexed' });
    assert.equal(await sink.isUnchanged('doc-n', 'h'), false);
    const stats = await sink.close();
    assert.deepEqual({ indexed: stats.indexed, failed: stats.failed, failures: stats.failures }, { indexed: 3, failed: 0, failures: { FOLIO_OCR_FAILED: 1 } });

    const bulk = await lines(NDJSON_FILES.bulk);
    assert.equal(bulk.length, 6);
    assert.deepEqual(JSON.parse(bulk[0]!), { index: { _index: 'my-chunks', _id: chunks[0]!.id } });
    const doc = JSON.parse(bulk[1]!) as Record<string, unknown>;
    assert.equal(doc['doc_id'], 'doc-n');
    assert.deepEqual(doc['vector'], [0.5, 0.25, 1]);
    assert.equal(stats.bytes, Buffer.byteLength(`${bulk.join('\n')}\n`));
    const written = (await lines(NDJSON_FILES.chunks)).map((line) => JSON.parse(line) as Chunk);
    assert.deepEqual(written, chunks);
    assert.deepEqual(
      (await lines(NDJSON_FILES.failures)).map((line) => JSON.parse(line) as FailureRecord),
      [failure],
    );
    const [document] = (await lines(NDJSON_FILES.documents)).map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(document?.['docId'], 'doc-n');
    assert.equal(document?.['status'], 'indexed');
  });

  it('should wait for the disk without piling up listeners', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning.message);
    };
    process.on('warning', onWarning);
    try {
      const sink = await createNdjsonSink({ outDir });
      // Each chunk is larger than the file buffers, so every write waits for `drain`.
      const text = 'x'.repeat(1_200_000);
      for (const chunk of makeChunks(15, { docId: 'doc-big' })) await sink.write({ ...chunk, text });
      const stats = await sink.close();
      assert.equal(stats.indexed, 15);
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(
        warnings.filter((w) => /MaxListeners|listener/i.test(w)),
        [],
      );
      assert.equal((await lines(NDJSON_FILES.chunks)).length, 15);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('should refuse writes after close', async () => {
    const sink = await createNdjsonSink({ outDir });
    await sink.close();
    await assert.rejects(sink.write(makeChunks(1)[0]!), { name: 'IndexingError', code: 'FOLIO_SINK_CLOSED' });
    assert.deepEqual(await sink.close(), await sink.close());
  });

  it('should reject an unusable outDir naming it', async () => {
    const file = join(outDir, 'a-file');
    const sink = await createNdjsonSink({ outDir: join(outDir, 'ok') });
    await sink.close();
    await (await import('node:fs/promises')).writeFile(file, 'x');
    await assert.rejects(createNdjsonSink({ outDir: file }), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'FOLIO_SINK_OUT_DIR');
      assert.ok(error.message.includes(file));
      return true;
    });
  });

  describe('bulk.ndjson', () => {
    const index = throwawayIndex('folio-test-ndjson');

    it('should be valid _bulk input for the real Elasticsearch', async () => {
      await installMappings(esClient(), { index: index.name, documentsIndex: index.documents, failuresIndex: index.failures, dims: 3 });
      const sink = await createNdjsonSink({ outDir, index: index.name });
      const chunks = [...makeChunks(4, { docId: 'doc-b', vector: [1, 0, 0] }), ...makeChunks(3, { docId: 'doc-c' })];
      for (const chunk of chunks) await sink.write(chunk);
      await sink.close();
      const body = await readFile(join(outDir, NDJSON_FILES.bulk), 'utf8');
      const response = await fetch(new URL('/_bulk?refresh=true', process.env['ELASTICSEARCH_URL']), {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson' },
        body,
      });
      const result = (await response.json()) as { errors: boolean; items: unknown[] };
      assert.equal(response.status, 200);
      assert.equal(result.errors, false, JSON.stringify(result.items.slice(0, 2)));
      assert.equal(result.items.length, chunks.length);
      assert.equal((await esClient().count({ index: index.name })).count, chunks.length);
      assert.equal((await esClient().count({ index: index.name, query: { match: { text: 'revenue' } } })).count, chunks.length);
    });
  });
});
