import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { formsFamily, reportFamily } from '../../../bench/factory/families/index.ts';
import type { DocumentTruth } from '../../../bench/factory/index.ts';
import { buildFactory, furnitureCounts, layerPages, planDocuments, scanDocument, truthMarkdown } from '../../../bench/factory/index.ts';
import type { BenchTest } from '../../../bench/olmocr/checks.ts';
import { runCheck } from '../../../bench/olmocr/checks.ts';
import { pageCount } from '../../../bench/quality/sets/pages.ts';
import type { Element } from '../../../core/types.ts';

const strip = (docs: Awaited<ReturnType<typeof planDocuments>>): string =>
  JSON.stringify(docs.map((d) => ({ id: d.id, source: d.source, blocks: d.blocks, furniture: [1, 2, 3].map((p) => d.furniture(p, 3)) })));

describe('bench/factory', () => {
  it('should plan the same documents for the same seed, and others for another seed', async () => {
    const a = await planDocuments('seed-a', 6, [reportFamily, formsFamily]);
    const b = await planDocuments('seed-a', 6, [reportFamily, formsFamily]);
    const c = await planDocuments('seed-b', 6, [reportFamily, formsFamily]);
    assert.equal(strip(a), strip(b));
    assert.notEqual(strip(a), strip(c));
    assert.equal(a.length, 6);
    assert.deepEqual(new Set(a.map((d) => d.family)), new Set(['report', 'forms']));
  });

  it('should write the body as Markdown with HTML tables that keep spans and header cells', () => {
    const md = truthMarkdown([
      { kind: 'heading', level: 2, text: 'Costs' },
      {
        kind: 'table',
        caption: 'Table 1: Costs',
        table: {
          rows: 2,
          cols: 2,
          headerRows: 1,
          cells: [
            { row: 0, col: 0, rowspan: 1, colspan: 2, text: 'Year', header: true },
            { row: 1, col: 0, rowspan: 1, colspan: 1, text: 'a', header: false },
            { row: 1, col: 1, rowspan: 1, colspan: 1, text: 'b', header: false },
          ],
        },
      },
      {
        kind: 'list',
        ordered: true,
        items: [
          { text: 'one', depth: 0 },
          { text: 'two', depth: 1 },
        ],
      },
    ]);
    assert.match(
      md,
      /^## Costs\n\nTable 1: Costs\n\n<table><tr><th colspan="2">Year<\/th><\/tr><tr><td>a<\/td><td>b<\/td><\/tr><\/table>\n\n1\. one\n {3}1\. two\n$/,
    );
  });

  it('should count furniture trigrams page by page', () => {
    const truth = {
      furniture: [
        { header: ['Annual Report'], footer: ['Page 1 of 2'] },
        { header: [], footer: ['Page 2 of 2'] },
      ],
    } as unknown as DocumentTruth;
    const el = (kind: Element['kind'], text: string, pageNumber: number): Element => ({ kind, text, pageNumber }) as Element;
    const perfect = furnitureCounts([el('pageHeader', 'Annual Report', 1), el('pageFooter', 'Page 1 of 2', 1), el('pageFooter', 'Page 2 of 2', 2)], truth);
    assert.equal(perfect.matched, perfect.truthUnits);
    assert.equal(perfect.matched, perfect.foundUnits);
    // The footer of page 2 found on page 1 is no match: furniture is scored where it is printed.
    const misplaced = furnitureCounts([el('pageFooter', 'Page 2 of 2', 1), el('paragraph', 'Annual Report', 1)], truth);
    assert.ok(misplaced.matched < misplaced.foundUnits);
    assert.ok(misplaced.matched < misplaced.truthUnits / 2);
  });

  describe('a small build, one document of each family, every engine', function () {
    this.timeout(300_000);
    let dir: string;
    let tests: BenchTest[];
    before(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'folio-factory-'));
      const manifest = await buildFactory({ seed: 'ci', documents: 6, outDir: dir, scans: false, log: () => {} });
      assert.equal(manifest.failures.length, 0, JSON.stringify(manifest.failures));
      assert.deepEqual(new Set(manifest.documents.map((d) => d.family)), new Set(['report', 'word', 'papers', 'slides', 'forms', 'scripts']));
      tests = (await readFile(path.join(dir, 'dataset.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as BenchTest);
    });
    after(async () => rm(dir, { recursive: true, force: true }));

    it('should write tests of every kind the documents allow, each passing on the truth', async () => {
      const types = new Set(tests.map((t) => t.type));
      for (const t of ['present', 'order', 'table'] as const) assert.ok(types.has(t), `no ${t} test among ${[...types].join(', ')}`);
      for (const test of tests) {
        const truth = await readFile(path.join(dir, 'truth', test.pdf.replace(/\.pdf$/, '.md')), 'utf8');
        assert.ok(runCheck(test, truth).passed, `${test.id} fails on its own truth`);
      }
    });

    it('should fail the furniture tests on pdftotext, which keeps running heads and page numbers, and pass most of its present tests', async () => {
      // pdftotext writes right-to-left lines in its own order, so only left-to-right furniture is sure to be found verbatim.
      const absent = tests.filter((t) => t.type === 'absent' && !t.pdf.startsWith('scripts-'));
      const present = tests.filter((t) => t.type === 'present');
      const layer = async (pdf: string): Promise<string> => (await layerPages(path.join(dir, 'pdf', pdf))).join('\n');
      assert.ok(absent.length > 0, 'no furniture test in the small build');
      for (const t of absent) assert.equal(runCheck(t, await layer(t.pdf)).passed, false, `${t.id} (${t.text}) passed on pdftotext`);
      let passed = 0;
      for (const t of present) if (runCheck(t, await layer(t.pdf)).passed) passed++;
      assert.ok(passed >= present.length * 0.7, `pdftotext passed ${passed}/${present.length} present tests`);
    });

    it('should scan a document into an image-only PDF of the same pages', async () => {
      const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as { documents: { id: string; pages: number }[] };
      const first = manifest.documents[0]!;
      const scanned = await scanDocument(path.join(dir, 'pdf', `${first.id}.pdf`), 'ci');
      const file = path.join(dir, 'scan.pdf');
      await writeFile(file, scanned);
      const pages = await layerPages(file);
      assert.equal(await pageCount(file), first.pages);
      assert.equal(pages.join('').trim(), '', 'a scan has no text layer');
    });
  });
});
