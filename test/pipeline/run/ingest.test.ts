import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { sourceFailure } from '../../../connector/index.ts';
import type { Chunk, FailureRecord, SourceDocument } from '../../../core/types.ts';
import type { ChunkSink, SourceItem } from '../../../pipeline/run/index.ts';
import { convert, ingest, isUnreadSource, processSources } from '../../../pipeline/run/index.ts';
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
            `Page ${i + 1} of the ${title} report has a paragraph of`,
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

/** An in-memory sink recording every call; `unchanged` lists document ids it already holds. */
class MemorySink implements ChunkSink {
  readonly chunks: Chunk[] = [];
  readonly failures: FailureRecord[] = [];
  readonly marks: { docId: string; status: string; chunks: number }[] = [];
  readonly checked: string[] = [];
  readonly unchanged: readonly string[];
  constructor(unchanged: readonly string[] = []) {
    this.unchanged = unchanged;
  }
  async write(chunk: Chunk): Promise<void> {
    this.chunks.push(chunk);
  }
  async fail(record: FailureRecord): Promise<void> {
    this.failures.push(record);
  }
  async markDocument(doc: { docId: string; status: 'indexed' | 'failed'; chunks: number }): Promise<void> {
    this.marks.push({ docId: doc.docId, status: doc.status, chunks: doc.chunks });
  }
  async isUnchanged(docId: string): Promise<boolean> {
    this.checked.push(docId);
    return this.unchanged.includes(docId);
  }
}

const inputs = (): SourceItem[] => [
  docOf('a.pdf', reportPdf('Alpha', 3)),
  sourceFailure('missing.pdf', 'FOLIO_NOT_FOUND', 'missing.pdf: no such file or folder'),
  docOf('b.pdf', reportPdf('Beta', 1)),
  docOf('truncated.pdf', new Uint8Array([37, 80, 68, 70, 45, 49])),
  docOf('c.md', new TextEncoder().encode('# Notes\n\nSome markdown text that is long enough to index.\n'), 'text/markdown'),
  docOf('d.pdf', reportPdf('Delta', 2)),
];

async function* from(items: readonly SourceItem[]): AsyncGenerator<SourceItem> {
  for (const item of items) yield item;
}

/** What must not depend on threads: the chunks (by id), failures and document marks, in a stable order. */
function outcome(sink: MemorySink): unknown {
  return {
    chunks: sink.chunks.map((c) => JSON.stringify(c)).toSorted(),
    failures: sink.failures.map(({ at: _at, ...rest }) => JSON.stringify(rest)).toSorted(),
    marks: sink.marks.map((m) => JSON.stringify(m)).toSorted(),
  };
}

describe('ingest', () => {
  it('should index the same chunks and record the same failures with worker threads as without', async () => {
    const alone = new MemorySink();
    const one = await ingest(from(inputs()), { sink: alone, engine: 'text', workers: 0 });
    const pooled = new MemorySink();
    const two = await ingest(from(inputs()), { sink: pooled, engine: 'text', workers: 2 });
    assert.deepEqual(outcome(pooled), outcome(alone));
    for (const summary of [one, two]) {
      // Every input accounted for: 5 documents and the missing one.
      assert.equal(summary.documents, 6);
      assert.equal(summary.documentsFailed, 2);
      assert.equal(summary.pages, 3 + 1 + 1 + 2);
      assert.equal(summary.chunks, alone.chunks.length);
    }
    assert.deepEqual(two.failuresByCode, one.failuresByCode);
    assert.ok(pooled.failures.some((f) => f.source === 'missing.pdf' && f.code === 'FOLIO_NOT_FOUND'));
    assert.ok(pooled.failures.some((f) => f.source.endsWith('truncated.pdf')));
    assert.equal(pooled.marks.length, 5, 'one end state per document read');
  });

  it('should skip unchanged documents before they reach a worker', async () => {
    const items = inputs();
    const skipped = (items[0] as SourceDocument).id;
    const sink = new MemorySink([skipped]);
    const pages: string[] = [];
    const summary = await ingest(from(items), { sink, engine: 'text', workers: 2, onPage: (e) => pages.push(e.source) });
    assert.equal(summary.documentsUnchanged, 1);
    assert.equal(summary.documents, 6);
    assert.ok(pages.length > 0, 'page events come back from the workers');
    assert.ok(!pages.some((p) => p.endsWith('a.pdf')), 'the unchanged document was not read');
    assert.ok(!sink.chunks.some((c) => c.docId === skipped));
    assert.equal(sink.checked.length, 5, 'every document was checked once');
  });

  it('should take a sink that is still connecting, and reject with its error when it fails', async () => {
    let resolve!: (sink: ChunkSink) => void;
    const later = new Promise<ChunkSink>((r) => (resolve = r));
    const sink = new MemorySink();
    setTimeout(() => resolve(sink), 50);
    const summary = await ingest(from(inputs()), { sink: later, engine: 'text', workers: 2 });
    assert.equal(summary.documents, 6);
    assert.ok(sink.chunks.length > 0);

    const refused = Object.assign(new Error('Elasticsearch at http://x is unreachable'), { code: 'FOLIO_ES_UNREACHABLE' });
    await assert.rejects(ingest(from(inputs()), { sink: Promise.reject(refused), engine: 'text', workers: 2 }), refused);
    await assert.rejects(ingest(from([]), { sink: Promise.reject(refused), engine: 'text' }), refused);
  });

  it('should open a sink given as a function once the run has started, not before', async () => {
    for (const workers of [0, 2]) {
      const events: string[] = [];
      const sink = new MemorySink();
      const summary = await ingest(from(inputs()), {
        sink: () => {
          events.push('sink');
          return sink;
        },
        engine: 'text',
        workers,
        onStarted: () => events.push('started'),
      });
      assert.deepEqual(events, ['started', 'sink'], `workers: ${workers}`);
      assert.equal(summary.documents, 6);
      assert.equal(sink.marks.length, 5);
    }
    // A run that fails before it starts never opens the sink.
    let opened = false;
    await assert.rejects(ingest(from(inputs()), { sink: () => ((opened = true), new MemorySink()), engine: 'text', workers: 2, maxTokens: 3 }), /maxTokens/);
    assert.equal(opened, false);
  });

  it('should name a bad `workers` value', async () => {
    await assert.rejects(ingest(from([]), { sink: new MemorySink(), workers: -1 }), /Expected `workers` to be an integer from 0 and up, got `-1` \(number\)/);
    await assert.rejects(ingest(from([]), { sink: new MemorySink(), workers: 1.5 }), /got `1\.5` \(number\)/);
  });
});

describe('processSources', () => {
  it('should yield every input once, on this thread or on workers', async () => {
    for (const workers of [0, 2]) {
      const out: string[] = [];
      for await (const item of processSources(from(inputs()), { engine: 'text', workers })) {
        out.push(isUnreadSource(item) ? `failed ${item.problem.source}` : `${item.ok ? 'read' : 'failed'} ${item.doc.relativePath}`);
      }
      assert.deepEqual(
        out.toSorted(),
        ['failed missing.pdf', 'failed truncated.pdf', 'read a.pdf', 'read b.pdf', 'read c.md', 'read d.pdf'],
        `workers ${workers}`,
      );
    }
  });
});

describe('convert', () => {
  it('should write the same files with worker threads as without', async () => {
    const { mkdtemp, readdir, readFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dirs = [await mkdtemp(join(tmpdir(), 'folio-convert-0-')), await mkdtemp(join(tmpdir(), 'folio-convert-2-'))];
    try {
      const [one, two] = [
        await convert(from(inputs()), { outDir: dirs[0]!, engine: 'text', workers: 0 }),
        await convert(from(inputs()), { outDir: dirs[1]!, engine: 'text', workers: 2 }),
      ];
      assert.equal(two.documents, one.documents);
      const names = (await readdir(dirs[0]!)).toSorted();
      assert.deepEqual((await readdir(dirs[1]!)).toSorted(), names);
      assert.ok(names.includes('a.md') && names.includes('c.json'));
      for (const name of names.filter((n) => n.endsWith('.md'))) {
        assert.equal(await readFile(join(dirs[1]!, name), 'utf8'), await readFile(join(dirs[0]!, name), 'utf8'), name);
      }
    } finally {
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    }
  });
});
