/**
 * The builder's check of the tests it wrote: every test must pass on the truth's own Markdown, and
 * its text must be found in the PDF's text layer. A test that fails either says the truth is
 * wrong: it is dropped and counted.
 */
import type { BenchTest } from '../../olmocr/checks.ts';
import { runCheck } from '../../olmocr/checks.ts';
import type { DocumentTruth } from '../types.ts';
import { inLayer, maxDiffs } from './compare.ts';
import { withoutFurnitureLines } from './page-body.ts';

/** A test as written, before it is numbered. */
export type CandidateTest = Omit<BenchTest, 'pdf' | 'page' | 'id'>;

/** Tests of one document and what was dropped, with why. */
export interface GeneratedTests {
  readonly tests: BenchTest[];
  readonly dropped: { readonly id: string; readonly reason: string }[];
}

/** Why `test` contradicts the text layer, or undefined where it does not. */
function missing(test: BenchTest, truth: DocumentTruth, extractions: readonly (readonly string[])[], bodies: readonly string[]): string | undefined {
  if (test.type === 'math') return undefined;
  if (test.type === 'absent') {
    // Furniture must be printed on every page that has it, or its absence proves nothing.
    const pages = truth.furniture.flatMap((f, p) => ([...f.header, ...f.footer].includes(test.text!) ? [p] : []));
    const page = (p: number): string[] => extractions.map((extraction) => extraction[p] ?? '');
    const lost = pages.find((p) => !inLayer(test.text!, page(p), 0));
    return lost === undefined ? undefined : `furniture line not on page ${lost + 1}'s text layer: ${test.text}`;
  }
  const texts = [test.text, test.before, test.after, test.cell, test.up, test.down, test.left, test.right, test.top_heading].filter(
    (t): t is string => t !== undefined,
  );
  const lost = texts.find((t) => !inLayer(t, bodies, test.type === 'table' ? 0 : maxDiffs(t)));
  return lost === undefined ? undefined : `not in the text layer: ${lost}`;
}

/**
 * Check the candidates against the truth's Markdown and the PDF's text layer; number the kept.
 *
 * @param extractions the PDF's text per page, one array per extraction (pdftotext's content order, its reading order)
 * @example
 * const { tests, dropped } = checkedTests(truth, candidateTests(truth, random), [await layerPages(pdf, 'raw'), await layerPages(pdf)]);
 */
export function checkedTests(truth: DocumentTruth, candidates: readonly CandidateTest[], extractions: readonly (readonly string[])[]): GeneratedTests {
  const tests: BenchTest[] = [];
  const dropped: { id: string; reason: string }[] = [];
  // Body text that runs on over a page break is read across it: the furniture between is taken out.
  const bodies = extractions.map((pages) => pages.map((text, p) => withoutFurnitureLines(text, truth.furniture[p])).join('\n'));
  candidates.forEach((candidate, i) => {
    const id = `${truth.id}_${String(i).padStart(2, '0')}`;
    const test = { pdf: `${truth.id}.pdf`, page: 1, id, ...candidate } as BenchTest;
    const own = runCheck(test, truth.markdown);
    const reason = own.passed ? missing(test, truth, extractions, bodies) : `fails on the truth's own Markdown: ${own.reason}`;
    if (reason === undefined) tests.push(test);
    else dropped.push({ id, reason });
  });
  return { tests, dropped };
}
