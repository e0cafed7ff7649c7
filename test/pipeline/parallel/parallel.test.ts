import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { SourceDocument } from '../../../core/types.ts';
import { isSourceFailure, processInParallel, resolveParallelOptions } from '../../../pipeline/parallel/index.ts';
import type { ParallelOptions } from '../../../pipeline/parallel/index.ts';
import { WorkerPool } from '../../../pipeline/parallel/pool.ts';
import { processDocument } from '../../../pipeline/run/index.ts';
import type { ProcessedDocument, SourceItem } from '../../../pipeline/run/index.ts';
import { makePdf, paragraph } from '../text-layer/make-pdf.ts';

function docOf(name: string, bytes: Uint8Array, mime = 'application/pdf'): SourceDocument {
  const uri = `file:///test/${name}`;
  return { id: createHash('sha256').update(uri).digest('hex').slice(0, 16), uri, relativePath: name, mime, bytes, contentHash: createHash('sha256').update(bytes).digest('hex') };
}

function reportPdf(title: string, pages: number): Uint8Array {
  return makePdf(
    Array.from({ length: pages }, (_, i) => ({
      texts: [
        { text: `${title} ${i + 1}`, x: 72, y: 90, size: 16, bold: true },
        ...paragraph([`Page ${i + 1} of the ${title} document has a paragraph of`, 'ordinary body text that goes on for a few lines', 'so that the text layer is judged usable and kept.'], 72, 130),
      ],
    })),
  );
}

async function* from(items: readonly SourceItem[]): AsyncGenerator<SourceItem> {
  for (const item of items) yield item;
}

async function collect(items: readonly SourceItem[], options: ParallelOptions): Promise<(ProcessedDocument | import('../../../pipeline/parallel/index.ts').SourceFailure)[]> {
  const out = [];
  for await (const result of processInParallel(from(items), options)) out.push(result);
  return out;
}

/** A result without the volatile parts (failure timestamps), for comparing runs. */
function comparable(result: ProcessedDocument): unknown {
  return { ...result, doc: result.doc.uri, failures: result.failures.map(({ at: _at, ...rest }) => rest) };
}

describe('processInParallel', () => {
  it('should give the same results as processing one document after another', async () => {
    const docs = [
      docOf('a.pdf', reportPdf('Alpha', 3)),
      docOf('b.pdf', reportPdf('Beta', 1)),
      docOf('c.md', new TextEncoder().encode('# Notes\n\nSome markdown text that is long enough.\n'), 'text/markdown'),
      docOf('d.pdf', new Uint8Array([37, 80, 68, 70, 45, 49])),
      docOf('e.pdf', reportPdf('Epsilon', 2)),
    ];
    const expected = await Promise.all(docs.map((doc) => processDocument(doc, { engine: 'text' })));
    const pages: string[] = [];
    const results = await collect(docs, { engine: 'text', workers: 2, onPage: (e) => pages.push(`${e.source}#${e.pageNumber}`) });
    assert.equal(results.length, docs.length);
    const byUri = new Map(results.filter((r) => !isSourceFailure(r)).map((r) => [(r as ProcessedDocument).doc.uri, r as ProcessedDocument]));
    for (const want of expected) {
      const got = byUri.get(want.doc.uri);
      assert.ok(got, `missing ${want.doc.uri}`);
      // The caller's document object comes back, bytes untouched.
      assert.equal(got.doc, docs.find((d) => d.uri === want.doc.uri));
      assert.deepEqual(comparable(got), comparable(want));
    }
    assert.equal(pages.length, 3 + 1 + 1 + 2);
  });

  it('should pass source problems through as failures', async () => {
    const results = await collect([{ source: 'missing.pdf', code: 'FOLIO_NOT_FOUND', reason: 'missing.pdf: no such file' }, docOf('b.pdf', reportPdf('Beta', 1))], { engine: 'text', workers: 1 });
    const failures = results.filter(isSourceFailure);
    assert.equal(failures.length, 1);
    assert.equal(failures[0]?.failure.code, 'FOLIO_NOT_FOUND');
    assert.equal(results.filter((r) => !isSourceFailure(r) && r.ok).length, 1);
  });

  it('should record a worker that runs out of memory as that document\'s failure, not end the run', async () => {
    // A heap too small to load the pipeline: every worker dies, every document is recorded.
    const results = await collect([docOf('a.pdf', reportPdf('Alpha', 1)), docOf('b.pdf', reportPdf('Beta', 1))], {
      engine: 'text',
      workers: 1,
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
    });
    assert.equal(results.length, 2);
    for (const result of results) {
      assert.ok(!isSourceFailure(result));
      assert.equal(result.ok, false);
      assert.equal(result.failures[0]?.code, 'FOLIO_WORKER_CRASHED');
      assert.match(result.failures[0]?.reason ?? '', /file:\/\/\/test\/[ab]\.pdf: the worker processing it died/);
    }
  });

  it('should stop reading the source when the consumer breaks off', async () => {
    let read = 0;
    async function* many(): AsyncGenerator<SourceItem> {
      for (let i = 0; i < 50; i++) {
        read++;
        yield docOf(`m${i}.md`, new TextEncoder().encode(`# Doc ${i}\n\nText of document number ${i}.\n`), 'text/markdown');
      }
    }
    for await (const _ of processInParallel(many(), { engine: 'text', workers: 1, queueSize: 1 })) break;
    // workers + queueSize in flight, plus the one the reader holds while waiting for room.
    assert.ok(read <= 4, `read ${read} documents ahead`);
  });

  it('should reject options that cannot cross to a worker', () => {
    assert.throws(() => resolveParallelOptions({ workers: 0 }), /Expected `workers` to be an integer from 1 and up, got `0` \(number\)/);
    assert.throws(() => resolveParallelOptions({ ocr: async () => { throw new Error('x'); } } as ParallelOptions), /ocrEngine/);
    assert.equal(resolveParallelOptions({}).workers >= 1, true);
  });
});

describe('WorkerPool', () => {
  it('should record a crashed worker as that job\'s failure and go on with a fresh worker', async () => {
    const pool = new WorkerPool({
      size: 1,
      setup: { process: {}, ocrEngine: undefined, ocrEngineOptions: {}, pageEvents: false },
      entry: new URL('./fixtures/crash-worker.ts', import.meta.url),
    });
    try {
      const [crashed, fine] = await Promise.all([pool.run(docOf('crash.pdf', new Uint8Array([1]))), pool.run(docOf('fine.pdf', new Uint8Array([1])))]);
      assert.equal(crashed.ok, false);
      assert.ok(!crashed.ok && crashed.code === 'FOLIO_WORKER_CRASHED' && /boom in the worker/.test(crashed.reason));
      assert.ok(fine.ok && fine.result.markdown === 'file:///test/fine.pdf');
    } finally {
      await pool.close();
    }
  });
});
