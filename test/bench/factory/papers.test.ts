import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { type Corpus, loadCorpus } from '../../../bench/factory/corpus/index.ts';
import { escapeLatex } from '../../../bench/factory/families/latex.ts';
import { roman } from '../../../bench/factory/families/paper-parts.ts';
import { PAPER_VARIANTS, papersFamily } from '../../../bench/factory/families/papers.ts';
import { pdflatexRenderer } from '../../../bench/factory/render/pdflatex.ts';
import type { PlannedDocument } from '../../../bench/factory/types.ts';
import { seededRandom } from '../../../bench/scans/random.ts';
import { preparePrinting, printAndCheck } from '../../support/factory-truth.ts';

const log = (line: string): void => {
  process.stderr.write(`  ${line}\n`);
};

let corpus: Corpus;
const plan = async (variant: string, n: number, seed = 'test-papers'): Promise<PlannedDocument> => {
  const id = `papers-${variant}-${String(n).padStart(3, '0')}`;
  return papersFamily.plan(variant, { random: seededRandom(`${seed}/${id}`), corpus, index: n, id });
};
/** What a plan decides: source, truth and furniture for a few page counts. */
const decided = (d: PlannedDocument): string => JSON.stringify({ source: d.source, blocks: d.blocks, furniture: [1, 2, 3].map((n) => d.furniture(n, 3)) });

describe('bench factory: papers', () => {
  before(async () => {
    corpus = await loadCorpus();
  });

  describe('escapeLatex', () => {
    it('escapes specials and breaks the ligatures T1 would make', () => {
      assert.equal(escapeLatex('a--b & 50% $x_1$ {c}'), 'a-{}-b \\& 50\\% \\$x\\_1\\$ \\{c\\}');
      assert.equal(
        escapeLatex('it\'s `q` "r" <a|b> ~^\\'),
        'it\\textquotesingle{}s \\textasciigrave{}q\\textasciigrave{} \\textquotedbl{}r\\textquotedbl{} \\textless{}a\\textbar{}b\\textgreater{} \\textasciitilde{}\\textasciicircum{}\\textbackslash{}',
      );
    });
  });

  describe('roman', () => {
    it('writes section numbers as \\Roman prints them', () => {
      assert.deepEqual([1, 4, 9, 14, 39].map(roman), ['I', 'IV', 'IX', 'XIV', 'XXXIX']);
    });
  });

  describe('papersFamily.plan', () => {
    it('plans the same document for the same seed and another for another seed', async () => {
      for (const [n, variant] of PAPER_VARIANTS.entries()) {
        assert.equal(decided(await plan(variant, n)), decided(await plan(variant, n)));
        assert.notEqual(decided(await plan(variant, n)), decided(await plan(variant, n, 'other-seed')));
      }
    });

    it('writes the truth as LaTeX prints it: numbered headings, theorem labels, table captions and spans', async () => {
      const docs = await Promise.all(Array.from({ length: 24 }, (_, n) => plan(PAPER_VARIANTS[n % PAPER_VARIANTS.length]!, n)));
      const blocks = docs.flatMap((d) => d.blocks);
      assert.ok(blocks.some((b) => b.kind === 'heading' && b.level === 2 && /^\d+ \S/.test(b.text)));
      assert.ok(blocks.some((b) => b.kind === 'heading' && b.level === 3 && /^\d+\.\d+ \S/.test(b.text)));
      assert.ok(
        blocks.some((b) => b.kind === 'heading' && b.level === 2 && /^\d+\. \S/.test(b.text)),
        'sections numbered `1.`',
      );
      assert.ok(
        blocks.some((b) => b.kind === 'heading' && b.level === 2 && /^[IVX]+\. \S/.test(b.text)),
        'sections numbered `I.`',
      );
      assert.ok(blocks.some((b) => b.kind === 'paragraph' && /^(?:Theorem|Lemma|Proposition|Corollary) \d+(?:\.\d+)?(?: \([A-Za-z ]+\))?\. /.test(b.text)));
      assert.ok(blocks.some((b) => b.kind === 'paragraph' && b.text.startsWith('Proof. ')));
      assert.ok(
        blocks.some((b) => b.kind === 'paragraph' && /\$[^$]+\$/.test(b.text)),
        'inline formulas in paragraphs',
      );
      assert.ok(blocks.some((b) => b.kind === 'formula'));
      const tables = blocks.flatMap((b) => (b.kind === 'table' ? [b] : []));
      assert.ok(tables.every((t) => /^Table \d+: /.test(t.caption ?? '')));
      assert.ok(tables.some((t) => t.table.headerRows === 2 && t.table.cells.some((c) => c.header && c.colspan === 2)));
      assert.ok(tables.some((t) => t.table.cells.some((c) => c.rowspan === 2)));
      for (const d of docs) {
        assert.equal(d.blocks[0]?.kind, 'heading');
        assert.equal(d.title, (d.blocks[0] as { text: string }).text);
        assert.equal(d.source.renderer, 'pdflatex');
      }
      // Furniture never carries body text, and page one of a fancy paper may be plain.
      const styles = new Set(docs.map((d) => JSON.stringify([d.furniture(1, 4), d.furniture(2, 4)])));
      assert.ok(styles.size >= 6, `${styles.size} furniture looks`);
    });
  });

  describe('pdflatexRenderer', () => {
    let dir: string;
    before(async function () {
      this.timeout(1_500_000);
      dir = await preparePrinting(pdflatexRenderer, log);
    });
    after(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('typesets papers whose truth and furniture agree with their text layer page by page', async () => {
      await printAndCheck(pdflatexRenderer, [await plan('running-heads', 2), await plan('theorems', 4), await plan('tables', 3)], dir, log);
    });

    it('reports a document pdflatex cannot typeset by its id and typesets the rest', async () => {
      const good = await plan('article', 0);
      const jobs = [
        {
          id: 'broken',
          source: { renderer: 'pdflatex' as const, tex: '\\documentclass{article}\\begin{document}\\undefinedmacro\\end{document}' },
          pdf: path.join(dir, 'broken.pdf'),
        },
        { id: good.id, source: good.source, pdf: path.join(dir, `${good.id}.pdf`) },
      ];
      const failures = await pdflatexRenderer.render(jobs, path.join(dir, 'work'), () => {});
      assert.deepEqual([...failures.keys()], ['broken']);
      assert.match(failures.get('broken')!.message, /broken: pdflatex failed: ! Undefined control sequence/);
    });
  });
});
