/**
 * `--set docling`: docling-dev PDFs with reference Markdown; similarity = 1 − normalised edit
 * distance of the plain texts, per PDF, the right-to-left pages also reported on their own.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigurationError } from '../../../core/errors.ts';
import { compareDocument } from '../../groundtruth/compare.ts';
import type { QualityDocument, QualitySet } from '../types.ts';
import { pageCount, readOutput } from './pages.ts';

/** Documents whose names say they are right-to-left (docling's `right_to_left_NN`, our `rtl-*`). */
export const isRightToLeft = (name: string): boolean => /right_to_left|(^|\/)rtl-/.test(name);

const mean = (xs: readonly number[]): number => (xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length);

/**
 * A ground-truth set: `pdf/<name>.pdf` beside `groundtruth/<name>.md`.
 * @param data @default '../shared/data/docling-dev'
 * @param name Set name. @default 'docling'
 */
export function groundTruthSet(data = '../shared/data/docling-dev', name = 'docling'): QualitySet {
  return {
    name,
    description: `${name === 'docling' ? 'docling-dev' : `${name} (our own pages)`} PDFs with reference Markdown (\`${path.relative(process.cwd(), data) || data}\`): similarity = 1 − normalised edit distance of the plain texts, mean over PDFs`,
    columns: ['document', 'pages', 'similarity', 'heading recall', 'TEDS', 'reading order'],
    async documents() {
      const files = await readdir(path.join(data, 'groundtruth')).catch((error: unknown) => {
        throw new ConfigurationError('FOLIO_BENCH_DATASET', `expected \`${data}/groundtruth\` to hold reference Markdown`, { cause: error });
      });
      const names = files
        .filter((f) => f.endsWith('.md'))
        .map((f) => f.slice(0, -3))
        .sort();
      return Promise.all(
        names.map(
          async (n): Promise<QualityDocument> => ({
            name: n,
            pdf: path.join(data, 'pdf', `${n}.pdf`),
            pages: await pageCount(path.join(data, 'pdf', `${n}.pdf`)),
          }),
        ),
      );
    },
    async score(markdownDir, documents) {
      const rows: string[][] = [];
      const sims: { name: string; sim: number }[] = [];
      for (const doc of documents) {
        const reference = await readFile(path.join(data, 'groundtruth', `${doc.name}.md`), 'utf8');
        const c = compareDocument({ reference, candidate: await readOutput(path.join(markdownDir, `${doc.name}.md`)) });
        const sim = 1 - c.editDistance;
        sims.push({ name: doc.name, sim });
        const f = (v: number | undefined): string => (v === undefined ? '—' : v.toFixed(3));
        rows.push([doc.name, String(doc.pages), sim.toFixed(3), f(c.headingRecall), f(c.teds), f(c.readingOrder)]);
      }
      const rtl = sims.filter((s) => isRightToLeft(s.name)).map((s) => s.sim);
      const ltr = sims.filter((s) => !isRightToLeft(s.name)).map((s) => s.sim);
      return {
        headline: mean(sims.map((s) => s.sim)),
        headlineName: 'similarity (mean over PDFs)',
        figures: { ...(rtl.length ? { rtl: mean(rtl) } : {}), ...(ltr.length ? { ltr: mean(ltr) } : {}) },
        rows,
      };
    },
  };
}
