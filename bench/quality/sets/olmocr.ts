/**
 * `--set olmocr`: the olmOCR-Bench dev sample; the headline counts only the dataset's own tests,
 * not the per-PDF baseline tests (any non-empty output passes those).
 */
import path from 'node:path';
import { loadDataset, scoreMarkdown } from '../../olmocr/score.ts';
import type { QualityDocument, QualitySet } from '../types.ts';
import { pageCount } from './pages.ts';

/**
 * @param dataset @default '../shared/data/olmocr-bench-dev/dataset.jsonl'
 */
export function olmocrSet(dataset = '../shared/data/olmocr-bench-dev/dataset.jsonl'): QualitySet {
  const pdfs = path.join(path.dirname(dataset), 'pdfs');
  return {
    name: 'olmocr',
    description: `olmOCR-Bench dev sample (\`${dataset}\`, a small sample, not the official benchmark): tests passed without the per-PDF baseline tests`,
    columns: ['document', 'pages', 'tests passed (no baseline)', 'baseline test'],
    async documents() {
      const tests = await loadDataset({ dataset });
      const names = [...new Set(tests.map((t) => t.test.pdf))].sort();
      return Promise.all(
        names.map(
          async (pdf): Promise<QualityDocument> => ({
            name: pdf.replace(/\.pdf$/i, ''),
            pdf: path.join(pdfs, pdf),
            pages: await pageCount(path.join(pdfs, pdf)),
          }),
        ),
      );
    },
    async score(markdownDir, documents) {
      const score = await scoreMarkdown({ dataset, markdown: markdownDir, baseline: true });
      const own = score.tests.filter((t) => t.type !== 'baseline');
      const passed = own.filter((t) => t.passed).length;
      const rows = documents.map((doc) => {
        const mine = own.filter((t) => t.pdf === `${doc.name}.pdf`);
        const base = score.tests.find((t) => t.type === 'baseline' && t.pdf === `${doc.name}.pdf`);
        return [doc.name, String(doc.pages), `${mine.filter((t) => t.passed).length}/${mine.length}`, base ? (base.passed ? 'pass' : 'fail') : '—'];
      });
      const byType: Record<string, number> = {};
      for (const [type, s] of Object.entries(score.byType)) {
        if (type === 'baseline') continue;
        byType[`${type} passed`] = s.passed;
        byType[`${type} total`] = s.total;
      }
      if (!score.mathCheck.startsWith('glyphs')) console.error(`quality: olmocr: ${score.mathCheck}`);
      return {
        headline: own.length === 0 ? 0 : passed / own.length,
        headlineName: 'tests passed without baseline tests',
        figures: {
          passed,
          total: own.length,
          'math glyph test in Chromium': Number(score.mathCheck.startsWith('glyphs')),
          overall: score.overall,
          withBaselinePassed: score.passed,
          withBaselineTotal: score.total,
          ...byType,
        },
        rows,
      };
    },
  };
}
