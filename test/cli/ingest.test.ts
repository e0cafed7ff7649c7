import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFolio } from './run-folio.ts';

async function lines(path: string): Promise<unknown[]> {
  const text = await readFile(path, 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

describe('folio ingest (NDJSON, the embedded default)', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-ingest-'));
    await copyFile('examples/docs/folio-handbook.pdf', join(dir, 'handbook.pdf'));
    await copyFile('examples/docs/invoice-ocr.md', join(dir, 'invoice.md'));
    await writeFile(join(dir, 'empty.pdf'), '');
    await writeFile(join(dir, 'notes.pdf'), 'these are plain notes, not a PDF\n'.repeat(20));
    const real = await readFile('examples/docs/folio-handbook.pdf');
    await writeFile(join(dir, 'truncated.pdf'), real.subarray(0, Math.floor(real.length / 3)));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it('should account for every input: good ones written, bad ones recorded with a reason', async () => {
    const out = join(dir, 'out');
    const run = await runFolio(['ingest', dir, join(dir, 'missing.pdf'), '--out', out, '--engine', 'text', '--embed', 'none'], {
      ELASTICSEARCH_URL: undefined,
    });
    // Some inputs failed and were recorded: exit 1, and the summary says where.
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, new RegExp(`in ${join(out, 'failures.jsonl').replace(/[.\\/]/g, '\\$&')}: .*FOLIO_`), run.stderr);
    assert.match(run.stderr, /documents: 6 /, run.stderr);
    const chunks = await lines(join(out, 'chunks.jsonl'));
    assert.ok(chunks.length >= 4, `chunks: ${chunks.length}`);
    const bulk = (await readFile(join(out, 'bulk.ndjson'), 'utf8')).split('\n').filter(Boolean);
    assert.equal(bulk.length, chunks.length * 2, 'one action line and one document per chunk');
    const failures = (await lines(join(out, 'failures.jsonl'))) as { source: string; code: string; reason: string }[];
    const failed = new Map(failures.map((f) => [f.source.split('/').pop(), f]));
    for (const name of ['empty.pdf', 'notes.pdf', 'truncated.pdf', 'missing.pdf']) {
      const failure = failed.get(name);
      assert.ok(failure, `${name} recorded as failed; failures: ${JSON.stringify(failures)}`);
      assert.match(failure.reason, new RegExp(name.replace('.', '\\.')), 'the reason names the document');
    }
  });

  it('should write the same chunks with worker threads as without', async () => {
    const inputs = ['handbook.pdf', 'invoice.md', 'empty.pdf', 'notes.pdf', 'truncated.pdf'].map((name) => join(dir, name));
    const chunksOf = async (workers: string): Promise<string[]> => {
      const out = join(dir, `out-w${workers}`);
      const run = await runFolio(['ingest', ...inputs, '--out', out, '--engine', 'text', '--embed', 'none', '--workers', workers], {
        ELASTICSEARCH_URL: undefined,
      });
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /documents: 5 \(2 done, 0 unchanged, 3 failed\)/, run.stderr);
      // Workers finish in their own order; the content and ids must not depend on it.
      return (await readFile(join(out, 'chunks.jsonl'), 'utf8')).split('\n').filter(Boolean).toSorted();
    };
    const alone = await chunksOf('0');
    assert.ok(alone.length >= 4);
    assert.deepEqual(await chunksOf('2'), alone);
  });

  it('should reject a bad --workers value naming it', async () => {
    const run = await runFolio(['ingest', 'examples/docs/invoice-ocr.md', '--workers', 'many', '--embed', 'none'], { ELASTICSEARCH_URL: undefined });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--workers.*many/);
  });

  it('should exit with 2 and a clear message when Elasticsearch is down at start', async () => {
    const run = await runFolio(['ingest', 'examples/docs/invoice-ocr.md', '--es', 'http://127.0.0.1:9', '--embed', 'none']);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /127\.0\.0\.1:9/);
  });

  it('should reject an unknown engine before reading anything', async () => {
    const run = await runFolio(['ingest', 'examples/docs', '--engine', 'tesseract']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--engine.*tesseract/);
  });
});
