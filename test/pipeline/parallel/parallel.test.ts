import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { sourceFailure } from '../../../connector/index.ts';
import { InferenceError } from '../../../core/errors.ts';
import type { SourceDocument } from '../../../core/types.ts';
import type { OcrEngine, PageImage } from '../../../inference/engine.ts';
import type { ParallelOptions } from '../../../pipeline/parallel/index.ts';
import { isUnreadSource, processInParallel, resolveParallelOptions } from '../../../pipeline/parallel/index.ts';
import { WorkerPool } from '../../../pipeline/parallel/pool.ts';
import type { ProcessedDocument, SourceItem } from '../../../pipeline/run/index.ts';
import { processDocument } from '../../../pipeline/run/index.ts';
import { makePdf, paragraph } from '../text-layer/make-pdf.ts';

function docOf(name: string, bytes: Uint8Array, mime = 'application/pdf'): SourceDocument {
  const uri = `file:///test/${name}`;
  return {
    id: createHash('sha256').update(uri).digest('hex').slice(0, 16),
    uri,
    relativePath: name,
    mime,
    bytes,
    contentHash: createHash('sha256').update(bytes).digest('hex'),
  };
}

function reportPdf(title: string, pages: number): Uint8Array {
  return makePdf(
    Array.from({ length: pages }, (_, i) => ({
      texts: [
        { text: `${title} ${i + 1}`, x: 72, y: 90, size: 16, bold: true },
        ...paragraph(
          [
            `Page ${i + 1} of the ${title} document has a paragraph of`,
            'ordinary body text that goes on for a few lines',
            'so that the text layer is judged usable and kept.',
          ],
          72,
          130,
        ),
      ],
    })),
  );
}

async function* from(items: readonly SourceItem[]): AsyncGenerator<SourceItem> {
  for (const item of items) yield item;
}

async function collect(
  items: readonly SourceItem[],
  options: ParallelOptions,
): Promise<(ProcessedDocument | import('../../../pipeline/parallel/index.ts').UnreadSource)[]> {
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
    const byUri = new Map(results.filter((r) => !isUnreadSource(r)).map((r) => [(r as ProcessedDocument).doc.uri, r as ProcessedDocument]));
    for (const want of expected) {
      const got = byUri.get(want.doc.uri);
      assert.ok(got, `missing ${want.doc.uri}`);
      // The caller's document object comes back, bytes untouched.
      assert.equal(
        got.doc,
        docs.find((d) => d.uri === want.doc.uri),
      );
      assert.deepEqual(comparable(got), comparable(want));
    }
    assert.equal(pages.length, 3 + 1 + 1 + 2);
  });

  it('should pass source problems through as failures', async () => {
    const results = await collect([sourceFailure('missing.pdf', 'FOLIO_NOT_FOUND', 'missing.pdf: no such file'), docOf('b.pdf', reportPdf('Beta', 1))], {
      engine: 'text',
      workers: 1,
    });
    const failures = results.filter(isUnreadSource);
    assert.equal(failures.length, 1);
    assert.equal(failures[0]?.failure.code, 'FOLIO_NOT_FOUND');
    assert.equal(results.filter((r) => !isUnreadSource(r) && r.ok).length, 1);
  });

  it("should record a worker that runs out of memory as that document's failure, not end the run", async () => {
    // A heap too small to load the pipeline: every worker dies, every document is recorded.
    const results = await collect([docOf('a.pdf', reportPdf('Alpha', 1)), docOf('b.pdf', reportPdf('Beta', 1))], {
      engine: 'text',
      workers: 1,
      resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 4 },
    });
    assert.equal(results.length, 2);
    for (const result of results) {
      assert.ok(!isUnreadSource(result));
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

  it("should send pages that need OCR to the calling thread's engine, one engine for every worker", async () => {
    const seen: string[] = [];
    const engine: OcrEngine = {
      name: 'stub',
      recognize: async (pages: readonly PageImage[]) => {
        // Runs on this thread: the images crossed from the workers with their pixels.
        for (const page of pages) assert.ok(page.data.length >= page.width * page.height, 'pixels crossed');
        seen.push(...pages.map((p) => `${p.source}#${p.pageNumber}`));
        if (pages.some((p) => p.source.endsWith('broken.pdf'))) throw new InferenceError('FOLIO_REMOTE_UNAVAILABLE', 'stub engine is down');
        return pages.map((p) => ({
          markdown: `# Scanned ${p.pageNumber}\n\nText the stub read on page ${p.pageNumber} of ${p.source}.`,
          engine: 'stub',
          stats: {},
        }));
      },
      close: async () => undefined,
    };
    let created = 0;
    const ocr = async (): Promise<OcrEngine> => {
      created++;
      return engine;
    };
    const docs = [docOf('a.pdf', reportPdf('Alpha', 2)), docOf('b.pdf', reportPdf('Beta', 1)), docOf('broken.pdf', reportPdf('Broken', 1))];
    const options = { engine: 'stub', ocrBatchSize: 1, dpi: 36 } as const;
    const expected = await Promise.all(docs.map((doc) => processDocument(doc, { ...options, ocr })));
    seen.length = 0;
    const results = (await collect(docs, { ...options, ocr, workers: 2 })) as ProcessedDocument[];
    assert.deepEqual(seen.toSorted(), ['file:///test/a.pdf#1', 'file:///test/a.pdf#2', 'file:///test/b.pdf#1', 'file:///test/broken.pdf#1']);
    assert.ok(created >= 1);
    for (const want of expected) {
      const got = results.find((r) => r.doc.uri === want.doc.uri);
      assert.ok(got, `missing ${want.doc.uri}`);
      assert.deepEqual(comparable(got), comparable(want));
    }
    const broken = results.find((r) => r.doc.uri.endsWith('broken.pdf'));
    assert.equal(broken?.failures[0]?.code, 'FOLIO_REMOTE_UNAVAILABLE', "the engine's error code comes back with the page");
    assert.match(broken?.failures[0]?.reason ?? '', /stub engine is down/);
    assert.ok(results.find((r) => r.doc.uri.endsWith('a.pdf'))?.chunks.some((c) => c.engine === 'stub'));
  });

  it('should chunk on the calling thread with its token counter', async () => {
    const docs = [
      docOf('a.pdf', reportPdf('Alpha', 3)),
      docOf('c.md', new TextEncoder().encode('# Notes\n\nSome markdown text that is long enough.\n'), 'text/markdown'),
    ];
    // A counter the workers cannot have: it lives in this thread's memory.
    let calls = 0;
    const countTokens = (text: string): number => {
      calls++;
      return text.split(/\s+/).length * 3;
    };
    const expected = await Promise.all(docs.map((doc) => processDocument(doc, { engine: 'text', maxTokens: 40, countTokens })));
    calls = 0;
    const results = (await collect(docs, { engine: 'text', maxTokens: 40, countTokens, workers: 2 })) as ProcessedDocument[];
    assert.ok(calls > 0, 'the counter ran here');
    for (const want of expected) assert.deepEqual(comparable(results.find((r) => r.doc.uri === want.doc.uri)!), comparable(want));
    // The coarse counter and small budget make more chunks than the default would.
    const plain = await processDocument(docs[0]!, { engine: 'text', maxTokens: 40 });
    assert.notEqual(results.find((r) => r.doc.uri === docs[0]!.uri)!.chunks.length, plain.chunks.length);
  });

  it('should say it has started its workers before it reads the source', async () => {
    const events: string[] = [];
    async function* told(): AsyncGenerator<SourceItem> {
      events.push('read');
      yield docOf('a.pdf', reportPdf('Alpha', 1));
    }
    const results = [];
    for await (const result of processInParallel(told(), { engine: 'text', workers: 2, onStarted: () => events.push('started') })) results.push(result);
    assert.deepEqual(events, ['started', 'read']);
    assert.equal(results.length, 1);
  });

  it('should name what is wrong with options', () => {
    assert.throws(() => resolveParallelOptions({ workers: 0 }), /Expected `workers` to be an integer from 1 and up, got `0` \(number\)/);
    assert.throws(
      () =>
        resolveParallelOptions({
          ocr: async () => {
            throw new Error('x');
          },
          ocrEngine: 'paddle',
        }),
      /Expected one of `ocr` .* and `ocrEngine` .*, got both/,
    );
    assert.throws(
      () => resolveParallelOptions({ countTokens: 5 } as unknown as ParallelOptions),
      /Expected `countTokens` to be a function, got `5` \(number\)/,
    );
    assert.throws(
      () => resolveParallelOptions({ onStarted: 'now' } as unknown as ParallelOptions),
      /Expected `onStarted` to be a function, got `now` \(string\)/,
    );
    assert.doesNotThrow(() =>
      resolveParallelOptions({
        ocr: async () => {
          throw new Error('x');
        },
        countTokens: (t) => t.length,
      }),
    );
    assert.equal(resolveParallelOptions({}).workers >= 1, true);
  });
});

describe('WorkerPool', () => {
  it('should start workers ahead only as asked, and the rest when documents wait', async () => {
    const pool = new WorkerPool({
      size: 3,
      setup: { process: {}, ocrEngine: undefined, ocrEngineOptions: {}, pageEvents: false },
      entry: new URL('./fixtures/crash-worker.ts', import.meta.url),
    });
    try {
      pool.warm(1);
      assert.equal(pool.started, 1);
      assert.ok((await pool.run(docOf('one.pdf', new Uint8Array([1])))).ok);
      assert.equal(pool.started, 1, 'one document needs one worker');
      const outcomes = await Promise.all(['a', 'b', 'c'].map((n) => pool.run(docOf(`${n}.pdf`, new Uint8Array([1])))));
      assert.ok(outcomes.every((o) => o.ok));
      assert.equal(pool.started, 3);
    } finally {
      await pool.close();
    }
  });

  it("should record a crashed worker as that job's failure and go on with a fresh worker", async () => {
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

describe('WorkerPool (idle workers)', () => {
  it('should end a worker idle for idleMs, say so once none is left, and read the next document on a fresh one with its own options', async () => {
    let idle: () => void = () => undefined;
    let idleCalls = 0;
    const pool = new WorkerPool({
      size: 1,
      idleMs: 50,
      setup: { process: {}, ocrEngine: undefined, ocrEngineOptions: {}, pageEvents: false },
      onIdle: () => {
        idleCalls++;
        idle();
      },
    });
    try {
      const doc = docOf('report.pdf', reportPdf('Quarterly', 2));
      const ended = new Promise<void>((resolve) => (idle = resolve));
      const first = await pool.run(doc);
      assert.ok(first.ok);
      await ended;
      assert.equal(pool.started, 0, 'the idle worker was ended');
      assert.equal(pool.recycled, 1);
      assert.equal(idleCalls, 1);
      // The fresh worker reads as the first did, with this document's options over the pool's.
      const second = await pool.run(doc, { engine: 'text' });
      assert.ok(second.ok && first.ok);
      assert.equal(second.result.markdown, first.result.markdown);
      assert.equal(second.result.pages[0]?.reason, 'forced');
      assert.notEqual(first.result.pages[0]?.reason, 'forced');
    } finally {
      await pool.close();
    }
    assert.throws(
      () => new WorkerPool({ size: 1, idleMs: -1, setup: { process: {}, ocrEngine: undefined, ocrEngineOptions: {}, pageEvents: false } }),
      /Expected `idleMs` to be an integer from 0 up, got `-1`/,
    );
  });
});
