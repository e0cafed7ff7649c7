/**
 * `folio ingest` as a sync against the real Elasticsearch the test setup starts: deleted sources
 * are pruned (never after a failed listing), resolved dead letters are cleared, and exit codes
 * say what happened.
 */
import assert from 'node:assert/strict';
import { chmod, copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { deleteIndices, esClient, esUrl, uniqueIndexName } from '../support/elasticsearch.ts';
import { type RunFolioOptions, runFolio } from './run-folio.ts';

const LOCKED = '../shared/data/docling-dev/pdf/password_protected_2206.01062_pg3.pdf';

describe('folio ingest as a sync (real Elasticsearch)', function () {
  this.timeout(120_000);
  let dir = '';
  let out = '';
  let index = '';
  const uri = (name: string): string => pathToFileURL(join(dir, name)).href;
  const ingest = (extra: readonly string[] = [], options: RunFolioOptions = {}) =>
    runFolio(['ingest', dir, '--es', esUrl(), '--index', index, '--out', out, '--engine', 'text', '--embed', 'none', '--workers', '0', ...extra], {}, options);
  /** Chunks, sync records and dead letters of one source. */
  const stored = async (name: string): Promise<{ chunks: number; records: number; failures: number }> => {
    const client = esClient();
    await client.indices.refresh({ index: [index, `${index}-documents`, `${index}-failures`] });
    const count = async (target: string): Promise<number> => (await client.count({ index: target, query: { term: { source: uri(name) } } })).count;
    return { chunks: await count(index), records: await count(`${index}-documents`), failures: await count(`${index}-failures`) };
  };

  beforeEach(async function () {
    esUrl(this);
    dir = await mkdtemp(join(tmpdir(), 'folio-sync-'));
    out = await mkdtemp(join(tmpdir(), 'folio-sync-out-'));
    index = uniqueIndexName('folio-test-sync');
    await copyFile('examples/docs/folio-handbook.pdf', join(dir, 'handbook.pdf'));
    await copyFile('examples/docs/invoice-ocr.md', join(dir, 'invoice.md'));
  });
  afterEach(async () => {
    await chmod(join(dir, 'sub'), 0o755).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
    await rm(out, { recursive: true, force: true });
    if (index !== '') await deleteIndices(index);
  });

  it("should remove a deleted file's chunks and record on the next run, and say so", async () => {
    const first = await ingest();
    assert.equal(first.code, 0, first.stderr);
    const before = await stored('invoice.md');
    assert.ok(before.chunks > 0 && before.records === 1, JSON.stringify(before));
    await rm(join(dir, 'invoice.md'));
    const second = await ingest();
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, /documents: 1 \(0 done, 1 unchanged, 0 failed, removed 1\)/, second.stderr);
    assert.deepEqual(await stored('invoice.md'), { chunks: 0, records: 0, failures: 0 });
    assert.ok((await stored('handbook.pdf')).chunks > 0, 'the file still there keeps its chunks');
    const search = await runFolio(['search', 'invoice total', '--es', esUrl(), '--index', index, '--mode', 'bm25', '--json']);
    assert.equal(search.code, 0, search.stderr);
    assert.doesNotMatch(search.stdout, /invoice\.md/);
  });

  it('should keep a deleted file with --no-prune', async () => {
    assert.equal((await ingest()).code, 0);
    await rm(join(dir, 'invoice.md'));
    const second = await ingest(['--no-prune']);
    assert.equal(second.code, 0, second.stderr);
    assert.doesNotMatch(second.stderr, /removed/);
    assert.equal((await stored('invoice.md')).records, 1);
  });

  it('should prune nothing when a listing failed', async () => {
    await mkdir(join(dir, 'sub'));
    await copyFile('examples/docs/invoice-ocr.md', join(dir, 'sub', 'nested.md'));
    assert.equal((await ingest()).code, 0);
    await rm(join(dir, 'invoice.md'));
    // A folder that cannot be read. Root reads it anyway: the run is then made as `nobody`.
    await chmod(join(dir, 'sub'), 0o000);
    await chmod(dir, 0o755);
    await chmod(out, 0o777);
    const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const second = await ingest([], asUser);
    assert.equal(second.code, 1, second.stderr);
    assert.match(second.stderr, /FOLIO_LISTING_FAILED|FOLIO_UNREADABLE/, second.stderr);
    assert.match(second.stderr, /prune: +not pruned/, second.stderr);
    const kept = await stored('invoice.md');
    assert.ok(kept.chunks > 0 && kept.records === 1, `nothing pruned: ${JSON.stringify(kept)}`);
  });

  it('should exit 1 naming where the failures are, and clear the dead letter once the document succeeds', async () => {
    await copyFile(LOCKED, join(dir, 'locked.pdf'));
    const first = await ingest();
    assert.equal(first.code, 1, first.stderr);
    assert.match(first.stderr, new RegExp(`in index ${index}-failures: FOLIO_PDF_PASSWORD 1`), first.stderr);
    assert.equal((await stored('locked.pdf')).failures, 1);
    const second = await ingest(['--password', '1234']);
    assert.equal(second.code, 0, second.stderr);
    const after = await stored('locked.pdf');
    assert.equal(after.failures, 0, 'the old FOLIO_PDF_PASSWORD record is gone');
    assert.ok(after.chunks > 0);
  });

  it('should exit 2 for a bad flag, before reading anything', async () => {
    const run = await ingest(['--max-tokens', 'lots']);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /--max-tokens.*lots/);
  });

  it('should list the exit codes in --help', async () => {
    const run = await runFolio(['ingest', '--help']);
    assert.equal(run.code, 0);
    for (const code of ['0', '1', '2', '3']) assert.match(run.stdout, new RegExp(`^  ${code}  `, 'm'));
  });
});

describe('folio ingest of a book with a blank page', () => {
  it('should record a blank page as blank, not failed', async function () {
    this.timeout(120_000);
    const dir = await mkdtemp(join(tmpdir(), 'folio-blank-'));
    try {
      const { PDFDocument, rgb } = await import('pdf-lib');
      const { readFile } = await import('node:fs/promises');
      const doc = await PDFDocument.load(await readFile('examples/docs/folio-handbook.pdf'));
      // An empty verso with a few specks of scanner dust: no text layer, so it goes to OCR.
      const page = doc.insertPage(1, [612, 792]);
      for (const [x, y] of [
        [100, 700],
        [420, 130],
        [300, 400],
        [77, 55],
      ] as const)
        page.drawRectangle({ x, y, width: 0.8, height: 0.8, color: rgb(0.1, 0.1, 0.1) });
      await writeFile(join(dir, 'book.pdf'), await doc.save());
      const run = await runFolio(['ingest', join(dir, 'book.pdf'), '--out', join(dir, 'out'), '--embed', 'none', '--workers', '0'], {
        ELASTICSEARCH_URL: undefined,
      });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /pages: +4 \(.*; 1 blank, 0 failed\)/, run.stderr);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
