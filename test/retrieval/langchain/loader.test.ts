import assert from 'node:assert/strict';
import { BaseDocumentLoader } from '@langchain/core/document_loaders/base';
import type { Chunk, FailureRecord } from '../../../core/types.ts';
import type { ChunkSource } from '../../../retrieval/index.ts';
import { FolioLoader } from '../../../retrieval/index.ts';

const PDF_DIR = '../shared/data/docling-dev/pdf';

const chunk = (over: Partial<Chunk>): Chunk => ({
  id: 'c',
  docId: 'd',
  source: 's.pdf',
  text: 't',
  headingPath: [],
  pages: [1],
  bboxes: [],
  kinds: ['paragraph'],
  tokens: 3,
  index: 0,
  contentHash: 'h',
  engine: 'text',
  ...over,
});

describe('FolioLoader', () => {
  it('should be a LangChain document loader', () => {
    assert.ok(new FolioLoader({ inputs: 'x' }) instanceof BaseDocumentLoader);
  });

  it('should give one Document per chunk with LangChain and Folio metadata', async () => {
    const source: ChunkSource = async function* () {
      yield chunk({
        id: 'a',
        pages: [2, 3],
        lines: { from: 4, to: 9 },
        headingPath: ['H'],
        bboxes: [{ page: 2, bbox: [1, 2, 3, 4] }],
        quality: { score: 0.9, passed: true, reasons: [] },
        text: 'alpha',
      });
    };
    const [doc, ...rest] = await new FolioLoader({ inputs: 'x', chunks: source }).load();
    assert.equal(rest.length, 0);
    assert.equal(doc!.pageContent, 'alpha');
    assert.equal(doc!.id, 'a');
    assert.deepEqual(doc!.metadata.loc, { pageNumber: 2, lines: { from: 4, to: 9 } });
    assert.equal(doc!.metadata.source, 's.pdf');
    assert.deepEqual(doc!.metadata.folio.headingPath, ['H']);
    assert.deepEqual(doc!.metadata.folio.bboxes, [{ page: 2, bbox: [1, 2, 3, 4] }]);
    assert.deepEqual(doc!.metadata.folio.kind, ['paragraph']);
    assert.equal(doc!.metadata.folio.quality, 0.9);
  });

  it('should group chunks by starting page in page mode, document by document', async () => {
    const source: ChunkSource = async function* () {
      yield chunk({ id: '1', pages: [1], text: 'one', lines: { from: 1, to: 2 } });
      yield chunk({ id: '2', pages: [1, 2], text: 'two', lines: { from: 3, to: 8 }, kinds: ['table'] });
      yield chunk({ id: '3', pages: [2], text: 'three' });
      yield chunk({ id: '4', docId: 'e', source: 'e.pdf', pages: [1], text: 'other' });
    };
    const docs = await new FolioLoader({ inputs: 'x', chunks: source, mode: 'page' }).load();
    assert.deepEqual(
      docs.map((d) => [d.metadata.source, d.metadata.loc.pageNumber, d.pageContent]),
      [
        ['s.pdf', 1, 'one\n\ntwo'],
        ['s.pdf', 2, 'three'],
        ['e.pdf', 1, 'other'],
      ],
    );
    assert.deepEqual(docs[0]!.metadata.loc.lines, { from: 1, to: 8 });
    assert.deepEqual(docs[0]!.metadata.folio.kind, ['paragraph', 'table']);
  });

  it('should stream with lazyLoad before the source is exhausted', async () => {
    let produced = 0;
    const source: ChunkSource = async function* () {
      for (let i = 0; i < 100; i++) {
        produced++;
        yield chunk({ id: String(i) });
      }
    };
    for await (const doc of new FolioLoader({ inputs: 'x', chunks: source }).lazyLoad()) {
      assert.equal(doc.id, '0');
      break;
    }
    assert.equal(produced, 1);
  });

  it('should name a bad option', () => {
    assert.throws(() => new FolioLoader({ inputs: [] }), /`inputs`/);
    assert.throws(() => new FolioLoader({ inputs: 'x', mode: 'book' as never }), /`mode`.*`book`/);
  });

  it('should load the docling PDFs through the pipeline, reporting what failed', async function () {
    this.timeout(180_000);
    const failures: FailureRecord[] = [];
    const loader = new FolioLoader({ inputs: PDF_DIR, pipeline: { engine: 'text' }, onFailure: (f) => failures.push(f) });
    const docs = await loader.load();
    const sources = new Set(docs.map((d) => d.metadata.source.split('/').pop()));
    for (const name of ['multi_page.pdf', '2305.03393v1-pg9.pdf', 'amt_handbook_sample.pdf']) assert.ok(sources.has(name), `${name} missing`);
    const typewriter = docs.find((d) => d.pageContent.includes('Christopher Latham Sholes'));
    assert.ok(typewriter, 'the typewriter passage');
    assert.equal(typewriter.metadata.loc.pageNumber, 1);
    assert.ok(typewriter.metadata.source.endsWith('multi_page.pdf'));
    const lastPage = docs.find((d) => d.pageContent.includes('remain at the heart of how we express ideas'));
    // The closing paragraph may share a chunk with the end of page 4; its pages still list 5.
    assert.ok(lastPage?.metadata.folio.pages.includes(5), JSON.stringify(lastPage?.metadata.folio.pages));
    // The encrypted PDF has no password here: reported, not thrown.
    assert.ok(
      failures.some((f) => f.source.includes('password_protected')),
      JSON.stringify(failures.map((f) => f.source)),
    );
  });

  it('should read a scan with its defaults, as the CLI does (the embedded OCR under auto), and not under engine: text', async function () {
    this.timeout(120_000);
    const docs = await new FolioLoader({ inputs: 'examples/docs/scanned-memo.png' }).load();
    assert.match(docs.map((d) => d.pageContent).join('\n'), /Quarterly Archive Review/);
    assert.equal(docs[0]!.metadata.folio.engine, 'paddle');
    const failures: FailureRecord[] = [];
    const none = await new FolioLoader({ inputs: 'examples/docs/scanned-memo.png', pipeline: { engine: 'text' }, onFailure: (f) => failures.push(f) }).load();
    assert.equal(none.filter((d) => /Quarterly/.test(d.pageContent)).length, 0);
    assert.ok(failures.length > 0 || none.length === 0, JSON.stringify(failures));
  });
});
