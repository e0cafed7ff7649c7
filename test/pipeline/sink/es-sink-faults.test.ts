/**
 * Transport faults between the sink and a real cluster, injected by a stub proxy: Elasticsearch
 * going away mid-run, 429 bursts, 503s. The invariant under test: indexed + failed = written,
 * with every failed chunk on record.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FailureRecord } from '../../../core/types.ts';
import { installMappings } from '../../../mappings/index.ts';
import type { EsSinkOptions } from '../../../pipeline/sink/index.ts';
import { createEsSink } from '../../../pipeline/sink/index.ts';
import { makeChunks } from '../../support/chunks.ts';
import { deleteIndices, esClient, esUrl, uniqueIndexName } from '../../support/elasticsearch.ts';
import type { FaultProxy } from '../../support/fault-proxy.ts';
import { startFaultProxy } from '../../support/fault-proxy.ts';

describe('createEsSink under transport faults', () => {
  let index = '';
  let outDir = '';
  let proxy: FaultProxy | undefined;
  let docSeq = 0;
  let docId = '';
  const options = (url: string, extra: Partial<EsSinkOptions> = {}): EsSinkOptions => ({
    url,
    index,
    documentsIndex: `${index}-documents`,
    failuresIndex: `${index}-failures`,
    dims: 3,
    fallbackFile: join(outDir, 'failures.jsonl'),
    retryDelayMs: 5,
    maxRetryDelayMs: 20,
    requestTimeoutMs: 5000,
    flushBytes: 3000,
    concurrency: 2,
    retries: 2,
    ...extra,
  });
  /** Bulk requests that carry chunks (not dead letters or sync records). */
  const isChunkBulk = (path: string, body: string): boolean => path.startsWith('/_bulk') && body.includes(`"_index":"${index}"`);
  const countDoc = async (): Promise<number> => {
    await esClient().indices.refresh({ index });
    return (await esClient().count({ index, query: { term: { doc_id: docId } } })).count;
  };

  before(async function () {
    esUrl(this);
    index = uniqueIndexName('folio-test-faults');
    // Installed up front through the real URL so the faults hit only the indexing.
    await installMappings(esClient(), { index, documentsIndex: `${index}-documents`, failuresIndex: `${index}-failures`, dims: 3 });
  });
  after(async () => {
    if (index !== '') await deleteIndices(index);
  });
  beforeEach(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'folio-faults-'));
    docSeq += 1;
    docId = `doc-fault-${docSeq}`;
  });
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
    await rm(outDir, { recursive: true, force: true });
  });

  it('should retry, then record every chunk it could not index when Elasticsearch goes away', async () => {
    let chunkBulks = 0;
    let gone = false;
    proxy = await startFaultProxy(esUrl(), ({ path, body }) => {
      if (isChunkBulk(path, body)) chunkBulks += 1;
      // Two chunk requests get through, then the node is gone for everyone.
      if (chunkBulks > 2) gone = true;
      return gone ? 'drop' : 'forward';
    });
    const sink = await createEsSink(options(proxy.url));
    const chunks = makeChunks(30, { docId });
    for (const chunk of chunks) await sink.write(chunk);
    await sink.markDocument({ docId, source: chunks[0]!.source, contentHash: 'h', pages: 30, chunks: 30, status: 'indexed' });
    const stats = await sink.close();

    assert.equal(stats.indexed + stats.failed, chunks.length);
    assert.ok(stats.indexed > 0 && stats.failed > 0, JSON.stringify(stats));
    assert.ok(stats.retries > 0);
    // The first batch to fail past its retries loses the cluster; later ones are not even sent.
    assert.ok((stats.failures['FOLIO_ES_TRANSPORT'] ?? 0) > 0);
    assert.equal((stats.failures['FOLIO_ES_TRANSPORT'] ?? 0) + (stats.failures['FOLIO_ES_LOST'] ?? 0), stats.failed);
    assert.match(stats.lost ?? '', /Elasticsearch at .* was lost/);
    assert.equal(sink.lost, stats.lost);
    assert.equal(
      Object.values(stats.failuresAt[join(outDir, 'failures.jsonl')] ?? {}).reduce((a, b) => a + b, 0) >= stats.failed,
      true,
      JSON.stringify(stats.failuresAt),
    );
    assert.equal(await countDoc(), stats.indexed);
    // The failures index was unreachable too: the records are in the local file.
    const lines = (await readFile(join(outDir, 'failures.jsonl'), 'utf8')).trim().split('\n');
    const records = lines.map((line) => JSON.parse(line) as FailureRecord);
    const chunkRecords = records.filter((record) => record.chunkId !== undefined);
    assert.equal(chunkRecords.length, stats.failed);
    for (const record of chunkRecords) {
      assert.equal(record.stage, 'index');
      assert.equal(record.docId, docId);
      assert.match(record.reason, /not indexed into .* (\(gave up after 3 attempts\)|not sent: Elasticsearch at .* was lost)/);
    }
    // So was the documents index: its record is there too, so the next run tries again.
    assert.ok(records.some((record) => record.code === 'FOLIO_ES_DOCUMENT_STATE'));
    assert.ok(new Set(chunkRecords.map((record) => record.chunkId)).size === chunkRecords.length);
  });

  it('should index everything after a 429 burst, counting the retries', async () => {
    let chunkBulks = 0;
    proxy = await startFaultProxy(esUrl(), ({ path, body }) => {
      if (!isChunkBulk(path, body)) return 'forward';
      chunkBulks += 1;
      return chunkBulks <= 3 ? 'item429' : 'forward';
    });
    const sink = await createEsSink(options(proxy.url));
    for (const chunk of makeChunks(12, { docId })) await sink.write(chunk);
    const stats = await sink.close();
    assert.deepEqual({ indexed: stats.indexed, failed: stats.failed }, { indexed: 12, failed: 0 });
    assert.ok(stats.retries >= 1, `retries ${stats.retries}`);
    assert.equal(await countDoc(), 12);
  });

  it('should retry whole-request 429 and 503 answers and recover', async () => {
    let chunkBulks = 0;
    proxy = await startFaultProxy(esUrl(), ({ path, body }) => {
      if (!isChunkBulk(path, body)) return 'forward';
      chunkBulks += 1;
      if (chunkBulks === 1) return { status: 429 };
      if (chunkBulks === 2) return { status: 503 };
      return 'forward';
    });
    const sink = await createEsSink(options(proxy.url, { flushBytes: 1_000_000 }));
    for (const chunk of makeChunks(5, { docId })) await sink.write(chunk);
    const stats = await sink.close();
    assert.deepEqual({ indexed: stats.indexed, failed: stats.failed, retries: stats.retries }, { indexed: 5, failed: 0, retries: 2 });
    assert.equal(await countDoc(), 5);
  });

  it('should dead-letter chunks still refused with 429 after the last retry', async () => {
    proxy = await startFaultProxy(esUrl(), ({ path, body }) => (isChunkBulk(path, body) ? 'item429' : 'forward'));
    const sink = await createEsSink(options(proxy.url, { retries: 1 }));
    for (const chunk of makeChunks(6, { docId })) await sink.write(chunk);
    await sink.markDocument({ docId, source: 'file:///data/x.pdf', contentHash: 'h', pages: 6, chunks: 6, status: 'indexed' });
    const stats = await sink.close();
    assert.deepEqual({ indexed: stats.indexed, failed: stats.failed }, { indexed: 0, failed: 6 });
    assert.equal(stats.failures['FOLIO_ES_TOO_MANY_REQUESTS'], 6);
    // The failures index was reachable: the dead letters are searchable there, not in the file.
    await esClient().indices.refresh({ index: `${index}-failures` });
    const letters = await esClient().count({ index: `${index}-failures`, query: { term: { doc_id: docId } } });
    assert.equal(letters.count, 6);
    await assert.rejects(readFile(join(outDir, 'failures.jsonl')), { code: 'ENOENT' });
  });

  it('should not retry a request the server rejects as bad', async () => {
    proxy = await startFaultProxy(esUrl(), ({ path, body }) => (isChunkBulk(path, body) ? { status: 400 } : 'forward'));
    const sink = await createEsSink(options(proxy.url));
    for (const chunk of makeChunks(3, { docId })) await sink.write(chunk);
    const stats = await sink.close();
    assert.deepEqual({ indexed: stats.indexed, failed: stats.failed, retries: stats.retries }, { indexed: 0, failed: 3, retries: 0 });
    assert.equal(stats.failures['FOLIO_ES_BULK_REJECTED'], 3);
  });

  it('should make write() wait while the concurrency limit is reached (backpressure)', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let sawFirst!: () => void;
    const first = new Promise<void>((resolve) => {
      sawFirst = resolve;
    });
    proxy = await startFaultProxy(esUrl(), ({ path, body }) => {
      if (!isChunkBulk(path, body)) return 'forward';
      sawFirst();
      return { hold: held };
    });
    // One request in flight at a time, one chunk per request.
    const sink = await createEsSink(options(proxy.url, { concurrency: 1, flushBytes: 1 }));
    const [a, b] = makeChunks(2, { docId });
    await sink.write(a!);
    await first;
    let secondDone = false;
    const second = sink.write(b!).then(() => {
      secondDone = true;
    });
    for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(secondDone, false, 'write() returned while the only slot was busy');
    release();
    await second;
    const stats = await sink.close();
    assert.deepEqual({ indexed: stats.indexed, failed: stats.failed }, { indexed: 2, failed: 0 });
  });
});
