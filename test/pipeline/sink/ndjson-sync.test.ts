/**
 * The NDJSON sink with `sync`: a rerun into the same folder skips what it holds (by content hash
 * or source version), carries the lines of every document it does not write again, and drops
 * those pruned as gone, the same end state the Elasticsearch index reaches.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNdjsonSink, NDJSON_FILES } from '../../../pipeline/sink/index.ts';
import type { Sink } from '../../../pipeline/sink/types.ts';
import { makeChunks } from '../../support/chunks.ts';

describe('createNdjsonSink with sync', () => {
  let outDir = '';
  beforeEach(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'folio-ndjson-sync-'));
  });
  afterEach(async () => {
    await rm(outDir, { recursive: true, force: true });
  });

  const lines = async (name: string): Promise<string[]> => (await readFile(join(outDir, name), 'utf8')).split('\n').filter((line) => line !== '');
  const docIds = async (): Promise<string[]> =>
    [...new Set((await lines(NDJSON_FILES.chunks)).map((line) => (JSON.parse(line) as { docId: string }).docId))].sort();
  const store = async (sink: Sink, docId: string, count: number, version?: string): Promise<void> => {
    const chunks = makeChunks(count, { docId, source: `s3://b/${docId}.md` });
    for (const chunk of chunks) await sink.write(chunk);
    await sink.markDocument({ docId, source: `s3://b/${docId}.md`, contentHash: `hash-${docId}`, version, pages: 1, chunks: count, status: 'indexed' });
  };

  it('should skip, carry, replace and prune like an index', async () => {
    const first = await createNdjsonSink({ outDir, sync: true });
    await store(first, 'keep', 2, 'v1');
    await store(first, 'change', 3, 'v1');
    await store(first, 'gone', 1, 'v1');
    await store(first, 'untouched', 1);
    await first.close();
    assert.deepEqual(await docIds(), ['change', 'gone', 'keep', 'untouched']);

    const second = await createNdjsonSink({ outDir, sync: true });
    assert.equal(await second.recordedVersion?.('keep'), 'v1');
    assert.equal(await second.recordedVersion?.('change'), 'v1');
    assert.equal(await second.recordedVersion?.('nothing'), undefined);
    assert.equal(await second.isUnchanged('untouched', 'hash-untouched'), true);
    await second.recordVersion?.('untouched', 'v-new');
    assert.equal(await second.isUnchanged('untouched', 'other'), false);
    await store(second, 'change', 1, 'v2');
    const pruned = await second.prune?.({ prefixes: ['s3://b/'], isGone: (uri) => uri === 's3://b/gone.md' });
    assert.deepEqual(pruned, { removed: 1, sources: ['s3://b/gone.md'] });
    await second.close();

    assert.deepEqual(await docIds(), ['change', 'keep', 'untouched']);
    const chunks = (await lines(NDJSON_FILES.chunks)).map((line) => JSON.parse(line) as { docId: string });
    assert.equal(chunks.filter((chunk) => chunk.docId === 'change').length, 1, 'the changed document has only its new chunks');
    assert.equal((await lines(NDJSON_FILES.bulk)).length, chunks.length * 2);
    const records = (await lines(NDJSON_FILES.documents)).map((line) => JSON.parse(line) as { docId: string; version?: string });
    assert.deepEqual(records.map((record) => `${record.docId}:${record.version ?? ''}`).sort(), ['change:v2', 'keep:v1', 'untouched:v-new']);
    assert.deepEqual((await readdir(outDir)).sort(), Object.values(NDJSON_FILES).sort(), 'no partial files left');
  });

  it('should leave the old files whole until close', async () => {
    const first = await createNdjsonSink({ outDir, sync: true });
    await store(first, 'a', 2);
    await first.close();
    const before = await lines(NDJSON_FILES.chunks);
    const second = await createNdjsonSink({ outDir, sync: true });
    await store(second, 'b', 1);
    // Not closed: a run that died here.
    assert.deepEqual(await lines(NDJSON_FILES.chunks), before);
    await second.close();
    assert.deepEqual(await docIds(), ['a', 'b']);
  });

  it('should keep no state without sync', async () => {
    const first = await createNdjsonSink({ outDir });
    await store(first, 'a', 1);
    await first.close();
    const second = await createNdjsonSink({ outDir });
    assert.equal(await second.isUnchanged('a', 'hash-a'), false);
    await second.close();
    assert.deepEqual((await lines(NDJSON_FILES.chunks)).length, 0);
  });
});
