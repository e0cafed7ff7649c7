/**
 * `--set formulas`: pdflatex pages of held-out formulas with the LaTeX as ground truth
 * (`pages.ts`, `make.ts`). A formula counts as found when one of the output's `$…$`/`$$…$$`
 * formulas renders like it, by the olmOCR math tests' semantics (`sameRendering`: MathML, then the
 * glyphs KaTeX draws in Chromium; MathML only, and a figure saying so, when no browser starts): the headline is
 * the share found, display and inline formulas also reported on their own.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { findMath, mathGlyphBook } from '../../olmocr/math.ts';
import { pageCount, readOutput } from '../sets/pages.ts';
import type { QualityDocument, QualitySet } from '../types.ts';
import { ensureFormulaPages, FORMULAS_DIR } from './make.ts';
import type { PageFormula } from './pages.ts';

/** A page's font family, from its name (`formulas-03-times`; Computer Modern has no suffix). */
const fontOf = (name: string): string => /-([a-z]+)$/.exec(name)?.[1] ?? 'cm';

const share = (found: number, n: number): number => (n === 0 ? 0 : found / n);

export function formulaSet(dir = FORMULAS_DIR): QualitySet {
  return {
    name: 'formulas',
    description:
      'our own pdflatex pages of held-out formulas and of inline formulas with scripts (`bench/quality/formulas/`, made under `.cache/quality/formulas/`): share of formulas found rendering like the typeset LaTeX (olmOCR math semantics)',
    columns: ['document', 'font', 'columns', 'display found', 'inline found'],
    async documents() {
      const { pages } = await ensureFormulaPages(dir);
      return Promise.all(
        pages.map(async (p): Promise<QualityDocument> => {
          const pdf = path.join(dir, 'pdf', `${p.name}.pdf`);
          return { name: p.name, pdf, pages: await pageCount(pdf) };
        }),
      );
    },
    async score(markdownDir, documents) {
      const tally: Record<string, { found: number; n: number }> = {};
      const count = (key: string, found: boolean): void => {
        const t = (tally[key] ??= { found: 0, n: 0 });
        t.n += 1;
        t.found += Number(found);
      };
      const pages = await Promise.all(
        documents.map(async (doc) => ({
          doc,
          truth: JSON.parse(await readFile(path.join(dir, 'truth', `${doc.name}.json`), 'utf8')) as PageFormula[],
          markdown: await readOutput(path.join(markdownDir, `${doc.name}.md`)),
        })),
      );
      // Every formula the glyph test may need, all pages at once, in one browser page.
      const { book, note } = await mathGlyphBook(pages.flatMap((p) => p.truth.map((f) => ({ reference: f.latex, markdown: p.markdown }))));
      const rows: string[][] = [];
      for (const { doc, truth, markdown } of pages) {
        const mine = { display: [0, 0], inline: [0, 0] };
        const font = fontOf(doc.name);
        for (const f of truth) {
          const found = findMath(f.latex, markdown, true, book).passed;
          const where = f.display ? 'display' : 'inline';
          count('all', found);
          count(where, found);
          count(`kind ${f.kind}`, found);
          count(`font ${font} ${where}`, found);
          mine[where][0]! += Number(found);
          mine[where][1]! += 1;
        }
        const columns = /twocolumn/.test(await readFile(path.join(dir, 'tex', `${doc.name}.tex`), 'utf8')) ? '2' : '1';
        rows.push([doc.name, font, columns, `${mine.display[0]}/${mine.display[1]}`, `${mine.inline[0]}/${mine.inline[1]}`]);
      }
      const figures: Record<string, number> = {};
      for (const [key, t] of Object.entries(tally)) {
        figures[`${key} found`] = share(t.found, t.n);
        figures[`${key} n`] = t.n;
      }
      figures['glyph test in Chromium'] = Number(book !== undefined);
      if (book === undefined) console.error(`quality: formulas: ${note}`);
      return { headline: share(tally.all?.found ?? 0, tally.all?.n ?? 0), headlineName: 'formulas found rendering equal', figures, rows };
    },
  };
}
