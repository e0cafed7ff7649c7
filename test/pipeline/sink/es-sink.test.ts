import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError } from '../../../core/errors.ts';
import { chunkRefreshInterval, installMappings } from '../../../mappings/index.ts';
import type { EsSinkOptions } from '../../../pipeline/sink/index.ts';
import { createEsSink } from '../../../pipeline/sink/index.ts';
import { makeChunk, makeChunks } from '../../support/chunks.ts';
import { deleteIndices, esClient, esUrl, throwawayIndex, uniqueIndexName } from '../../support/elasticsearch.ts';
import { startFaultProxy } from '../../support/fault-proxy.ts';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function count(index: string, query?: object): Promise<number> {
  await esClient().indices.refresh({ index });
  return (await esClient().count({ index, ...(query === undefined ? {} : { query }) })).count;
}

describe('createEsSink', () => {
  // Most tests share one index set (vector size 3) and tell their data apart by document id;
  // creating indices is the slow part of these tests.
  let shared = '';
  let outDir = '';
  const sinkOptions = (extra: Partial<EsSinkOptions> = {}, index = shared): EsSinkOptions => ({
    url: esUrl(),
    index,
    documentsIndex: `${index}-documents`,
    failuresIndex: `${index}-failures`,
    dims: 3,
    fallbackFile: join(outDir, 'failures.jsonl'),
    retryDelayMs: 5,
    maxRetryDelayMs: 20,
    ...extra,
  });
  const byDoc = (docId: string): object => ({ term: { doc_id: docId } });

  before(async function () {
    esUrl(this);
    shared = uniqueIndexName('folio-test-sink');
    await installMappings(esClient(), { index: shared, documentsIndex: `${shared}-documents`, failuresIndex: `${shared}-failures`, dims: 3 });
  });
  after(async () => {
    if (shared !== '') await deleteIndices(shared);
  });
  beforeEach(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'folio-sink-'));
  });
  afterEach(async () => {
    await rm(outDir, { recursive: true, force: true });
  });

  it('should index chunks so that BM25 and kNN find them', async () => {
    const sink = await createEsSink(sinkOptions());
    const chunks = makeChunks(5, { docId: 'doc-s' }).map((chunk, i) => ({ ...chunk, vector: [1, i, 0.5] }));
    for (const chunk of chunks) await sink.write({ ...chunk, ...(chunk.index === 4 ? { text: 'zebra crossing in the annex' } : {}) });
    const stats = await sink.close();
    assert.deepEqual({ indexed: stats.indexed, failed: stats.failed, retries: stats.retries }, { indexed: 5, failed: 0, retries: 0 });
    assert.ok(stats.bytes > 0);
    const bm25 = await esClient().search<{ chunk_index: number; table: { header: string[] } }>({ index: shared, query: { match: { text: 'zebra' } } });
    assert.equal(bm25.hits.hits.length, 1);
    assert.equal(bm25.hits.hits[0]?._id, chunks[4]?.id);
    assert.equal(bm25.hits.hits[0]?._source?.chunk_index, 4);
    assert.deepEqual(bm25.hits.hits[0]?._source?.table.header, ['Unit', 'Growth']);
    // Vectors are stored, but left out of `_source` unless asked for (Elasticsearch ≥ 9.2).
    const stored = await esClient().get<{ vector: number[] }>({ index: shared, id: chunks[1]!.id, _source_exclude_vectors: false });
    assert.deepEqual(stored._source?.vector, [1, 1, 0.5]);
    const knn = await esClient().search({
      index: shared,
      knn: { field: 'vector', query_vector: [1, 2, 0.5], k: 1, num_candidates: 10, filter: byDoc('doc-s') },
    });
    assert.equal(knn.hits.hits[0]?._id, chunks[2]?.id);
    const exact = await esClient().count({ index: shared, query: { bool: { filter: [byDoc('doc-s'), { term: { 'heading_path.exact': 'Table 3' } }] } } });
    assert.equal(exact.count, 1);
  });

  it('should answer the source version a document was stored at, before its download', async () => {
    const long = JSON.stringify({ etag: '"e1"', links: Array.from({ length: 800 }, (_, i) => `https://intranet.example/a/long/path/page-${i}.html`) });
    const first = await createEsSink(sinkOptions());
    for (const chunk of makeChunks(2, { docId: 'doc-v' })) await first.write(chunk);
    await first.markDocument({ docId: 'doc-v', source: 's3://b/doc-v.pdf', contentHash: 'hv', version: long, pages: 1, chunks: 2, status: 'indexed' });
    await first.markDocument({ docId: 'doc-w', source: 's3://b/doc-w.pdf', contentHash: 'hw', version: 'v-w', pages: 1, chunks: 0, status: 'failed' });
    await first.close();
    const second = await createEsSink(sinkOptions());
    assert.equal(await second.recordedVersion?.('doc-v'), long, 'a page version longer than a keyword term is kept whole');
    assert.equal(await second.recordedVersion?.('doc-w'), undefined, 'a failed document is read again');
    assert.equal(await second.recordedVersion?.('doc-none'), undefined);
    await second.close();
  });

  it('should skip unchanged documents on a rerun and never duplicate chunks', async () => {
    const chunks = makeChunks(4, { docId: 'doc-r', contentHash: 'h1' });
    const first = await createEsSink(sinkOptions());
    assert.equal(await first.isUnchanged('doc-r', 'h1'), false);
    for (const chunk of chunks) await first.write(chunk);
    await first.markDocument({ docId: 'doc-r', source: 'file:///data/doc-r.pdf', contentHash: 'h1', pages: 4, chunks: 4, status: 'indexed' });
    await first.close();
    const second = await createEsSink(sinkOptions());
    assert.equal(await second.isUnchanged('doc-r', 'h1'), true);
    assert.equal(await second.isUnchanged('doc-r', 'h2'), false);
    // Written again anyway: same ids, so the count stays.
    for (const chunk of chunks) await second.write(chunk);
    assert.equal((await second.close()).indexed, 4);
    assert.equal(await count(shared, byDoc('doc-r')), 4);
    const versions = await esClient().mget({ index: shared, ids: chunks.map((c) => c.id) });
    assert.deepEqual(
      versions.docs.map((doc) => ('_version' in doc ? doc._version : 0)),
      [2, 2, 2, 2],
    );
  });

  it('should delete the chunks a changed document no longer has', async () => {
    const first = await createEsSink(sinkOptions());
    for (const chunk of makeChunks(5, { docId: 'doc-c', contentHash: 'v1' })) await first.write(chunk);
    await first.markDocument({ docId: 'doc-c', source: 's', contentHash: 'v1', pages: 5, chunks: 5, status: 'indexed' });
    for (const chunk of makeChunks(2, { docId: 'doc-other' })) await first.write(chunk);
    await first.close();
    const second = await createEsSink(sinkOptions());
    assert.equal(await second.isUnchanged('doc-c', 'v2'), false);
    for (const chunk of makeChunks(2, { docId: 'doc-c', contentHash: 'v2' })) await second.write(chunk);
    await second.markDocument({ docId: 'doc-c', source: 's', contentHash: 'v2', pages: 2, chunks: 2, status: 'indexed' });
    assert.deepEqual((await second.close()).failures, {});
    assert.equal(await count(shared, byDoc('doc-c')), 2);
    assert.equal(await count(shared, byDoc('doc-other')), 2);
    assert.equal(await count(shared, { bool: { filter: [byDoc('doc-c'), { term: { content_hash: 'v1' } }] } }), 0);
  });

  it('should dead-letter a chunk the index refuses and mark its document failed', async () => {
    const sink = await createEsSink(sinkOptions());
    await sink.write(makeChunk({ docId: 'doc-f', index: 0, vector: [1, 2, 3] }));
    await sink.write(makeChunk({ docId: 'doc-f', index: 1, vector: [1, 2] }));
    await sink.markDocument({ docId: 'doc-f', source: 'file:///data/doc-f.pdf', contentHash: 'hf', pages: 2, chunks: 2, status: 'indexed' });
    await sink.fail({
      source: 'file:///data/bad.pdf',
      docId: 'doc-bad',
      stage: 'open',
      code: 'FOLIO_PDF_PASSWORD',
      reason: 'bad.pdf: encrypted',
      at: new Date().toISOString(),
    });
    const stats = await sink.close();
    assert.equal(stats.indexed, 1);
    assert.equal(stats.failed, 1);
    assert.deepEqual(stats.failures, { FOLIO_ES_DOCUMENT_REJECTED: 1, FOLIO_PDF_PASSWORD: 1 });
    assert.match(stats.dropped[0]?.reason ?? '', /doc-f\.pdf: chunk 1 \(pages 2\) not indexed into .*different number of dimensions \[2\]/);
    const failures = `${shared}-failures`;
    assert.equal(await count(failures, { terms: { doc_id: ['doc-f', 'doc-bad'] } }), 2);
    assert.equal(await count(failures, { bool: { filter: [byDoc('doc-f'), { term: { code: 'FOLIO_ES_DOCUMENT_REJECTED' } }] } }), 1);
    const again = await createEsSink(sinkOptions());
    assert.equal(await again.isUnchanged('doc-f', 'hf'), false);
    await again.close();
    await esClient().indices.refresh({ index: `${shared}-documents` });
    const record = await esClient().search<{ status: string; reason: string }>({ index: `${shared}-documents`, query: byDoc('doc-f') });
    assert.equal(record.hits.hits[0]?._source?.status, 'failed');
    assert.match(record.hits.hits[0]?._source?.reason ?? '', /^1 of 2 chunks not indexed/);
  });

  it('should refuse a vector size that differs from the existing index', async () => {
    await assert.rejects(createEsSink(sinkOptions({ dims: 4 })), { name: 'ConfigurationError', code: 'FOLIO_ES_DIMS_MISMATCH' });
  });

  it('should fail with FOLIO_ES_UNREACHABLE naming the URL when Elasticsearch is down', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    await assert.rejects(createEsSink({ url, retries: 1, retryDelayMs: 1 }), (error: unknown) => {
      assert.ok(error instanceof ConfigurationError);
      assert.equal(error.code, 'FOLIO_ES_UNREACHABLE');
      assert.ok(error.message.includes(url), error.message);
      return true;
    });
  });

  it('should name the option and the value when an option is invalid', async () => {
    await assert.rejects(createEsSink({ url: esUrl(), concurrency: 0 }), /Expected `concurrency` to be an integer from 1 and up, got `0` \(number\)/);
    await assert.rejects(createEsSink({}), /Expected `url` or `client`/);
  });

  it('should send a part-filled buffer after flushIntervalMs without waiting for close', async () => {
    const sink = await createEsSink(sinkOptions({ flushIntervalMs: 50 }));
    const chunk = makeChunk({ docId: 'doc-timer' });
    await sink.write(chunk);
    let found = false;
    // Bounded polling: the document must become visible before close() is called.
    for (let i = 0; i < 100 && !found; i += 1) {
      found = await esClient().exists({ index: shared, id: chunk.id, realtime: true });
      if (!found) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(found, true);
    assert.equal((await sink.close()).indexed, 1);
  });

  it('should write failure records to the fallback file only when needed', async () => {
    const sink = await createEsSink(sinkOptions());
    await sink.write(makeChunk({ docId: 'doc-nf' }));
    await sink.close();
    await assert.rejects(readFile(join(outDir, 'failures.jsonl')), { code: 'ENOENT' });
  });

  it('should stop retrying when aborted and record what was not stored', async () => {
    const controller = new AbortController();
    const sink = await createEsSink({
      url: esUrl(),
      index: shared,
      documentsIndex: `${shared}-documents`,
      failuresIndex: `${shared}-failures`,
      dims: 3,
      fallbackFile: join(outDir, 'failures.jsonl'),
      signal: controller.signal,
    });
    await sink.write(makeChunk({ docId: 'doc-abort' }));
    controller.abort(new Error('user pressed ^C'));
    await assert.rejects(sink.write(makeChunk({ docId: 'doc-abort', index: 1 })), /user pressed/);
    const stats = await sink.close();
    assert.equal(stats.indexed + stats.failed, 1);
  });

  describe('on a fresh index', () => {
    const index = throwawayIndex('folio-test-sink-fresh');

    it('should index chunks without vectors, with the default vector size', async () => {
      const sink = await createEsSink(sinkOptions({ dims: undefined }, index.name));
      for (const chunk of makeChunks(3)) await sink.write(chunk);
      assert.equal((await sink.close()).indexed, 3);
      assert.equal(await count(index.name), 3);
      const mapping = await esClient().indices.getMapping({ index: index.name });
      assert.equal((mapping[index.name]?.mappings.properties?.['vector'] as { dims: number } | undefined)?.dims, 384);
    });

    it('should keep refresh on while it loads a new chunk index: chunks are searchable before close', async () => {
      const sink = await createEsSink(sinkOptions({}, index.name));
      for (const chunk of makeChunks(3)) await sink.write(chunk);
      // No refresh by anyone: the flush (1 s) and the index's own refresh interval make them visible.
      let seen = 0;
      for (let waited = 0; waited < 10_000 && seen < 3; waited += 250) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        // The index may still be starting its shard: that counts as nothing seen yet.
        seen = await esClient()
          .count({ index: index.name })
          .then(
            (answer) => answer.count,
            () => 0,
          );
      }
      assert.equal(seen, 3, 'searchable while the writer is still open');
      const settings = await esClient().indices.getSettings({ index: index.name, flat_settings: true });
      assert.equal(settings[index.name]?.settings?.['index.refresh_interval'], chunkRefreshInterval());
      assert.equal((await sink.close()).indexed, 3);
    });

    it('should turn refresh back on for an index a killed writer left it off on', async () => {
      await installMappings(esClient(), {
        index: index.name,
        documentsIndex: `${index.name}-documents`,
        failuresIndex: `${index.name}-failures`,
        dims: 3,
        bulkLoad: true,
      });
      const sink = await createEsSink(sinkOptions({}, index.name));
      const settings = await esClient().indices.getSettings({ index: index.name, flat_settings: true });
      assert.equal(settings[index.name]?.settings?.['index.refresh_interval'], chunkRefreshInterval());
      await sink.close();
    });

    it('should create a new index in the background: writes wait only at their flush', async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      // Index creation (PUT /<index>) is held until the test lets it through.
      const isCreate = (method: string, path: string): boolean => method === 'PUT' && !path.startsWith('/_index_template');
      const proxy = await startFaultProxy(esUrl(), ({ method, path }) => (isCreate(method, path) ? { hold: held } : 'forward'));
      try {
        const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('createEsSink waited for index creation')), 5000));
        const sink = await Promise.race([createEsSink(sinkOptions({ url: proxy.url }, index.name)), timeout]);
        assert.equal(await sink.isUnchanged('doc-new', 'h1'), false);
        for (const chunk of makeChunks(3, { docId: 'doc-new', vector: [1, 0, 0] })) await sink.write(chunk);
        assert.ok(
          !proxy.log.some((line) => line.startsWith('GET') && line.includes('-documents')),
          `a new documents index is not asked: ${proxy.log.join('; ')}`,
        );
        assert.ok(!proxy.log.some((line) => line.startsWith('POST /_bulk')), 'nothing is sent before the index exists');
        release();
        const stats = await sink.close();
        assert.deepEqual({ indexed: stats.indexed, failed: stats.failed }, { indexed: 3, failed: 0 });
        assert.equal(await count(index.name), 3);
      } finally {
        release();
        await proxy.close();
      }
    });

    it('should record the chunks and refuse further writes when a new index cannot be created', async () => {
      const proxy = await startFaultProxy(esUrl(), ({ method, path }) =>
        method === 'PUT' && !path.startsWith('/_index_template') ? { status: 400 } : 'forward',
      );
      try {
        const sink = await createEsSink(sinkOptions({ url: proxy.url, flushBytes: 1 }, index.name));
        let written = 0;
        let refused: unknown;
        for (const chunk of makeChunks(50, { docId: 'doc-refused', vector: [1, 0, 0] })) {
          try {
            await sink.write(chunk);
            written++;
          } catch (error) {
            refused = error;
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        assert.ok(refused instanceof ConfigurationError && refused.code === 'FOLIO_ES_MAPPING', `writes stop with the install error, got ${String(refused)}`);
        const stats = await sink.close();
        assert.equal(stats.indexed, 0);
        assert.equal(stats.failed, written, 'every chunk written before the stop is recorded');
        const fallback = (await readFile(join(outDir, 'failures.jsonl'), 'utf8'))
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { code: string; chunkId?: string });
        assert.equal(fallback.filter((r) => r.chunkId !== undefined && r.code === 'FOLIO_ES_MAPPING').length, written);
      } finally {
        await proxy.close();
      }
    });

    it('should take the vector size from the first chunk when dims is not given, even after failures were recorded', async () => {
      const sink = await createEsSink(sinkOptions({ dims: undefined, flushIntervalMs: 20 }, index.name));
      await sink.fail({
        source: 'file:///data/early.pdf',
        stage: 'source',
        code: 'FOLIO_SOURCE_MISSING',
        reason: 'early.pdf: not found',
        at: new Date().toISOString(),
      });
      // Let the timer store the failure first (bounded polling), before any chunk says its size.
      for (let i = 0; i < 100 && !(await esClient().indices.exists({ index: index.failures })); i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.equal(await esClient().indices.exists({ index: index.name }), false);
      await sink.write(makeChunk({ vector: [0.1, 0.2, 0.3, 0.4, 0.5] }));
      assert.equal((await sink.close()).indexed, 1);
      const mapping = await esClient().indices.getMapping({ index: index.name });
      assert.equal((mapping[index.name]?.mappings.properties?.['vector'] as { dims: number } | undefined)?.dims, 5);
    });
  });
});
