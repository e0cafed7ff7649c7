/** One document's candidate Markdown against its reference Markdown. */
import { ratio } from '../olmocr/fuzzy.ts';
import { normalizeText } from '../olmocr/normalize.ts';
import { normalizedEditDistance } from './edit-distance.ts';
import { digestMarkdown } from './markdown.ts';
import { readingOrder } from './order.ts';
import { teds } from './teds.ts';

export interface DocumentComparison {
  /** Normalised edit distance of the plain texts: 0 identical, 1 nothing shared. */
  readonly editDistance: number;
  /** Reference headings found among the candidate's headings (fuzzy ratio ≥ 0.8), a fraction; undefined when the reference has none. */
  readonly headingRecall?: number;
  readonly headings: { readonly reference: number; readonly candidate: number; readonly matched: number };
  /** Mean TEDS over the reference tables, each paired with the most similar unused candidate table (0 when none is left); undefined without reference tables. */
  readonly teds?: number;
  /** The same, structure only. */
  readonly tedsStructure?: number;
  readonly tables: { readonly reference: number; readonly candidate: number };
  /** Fraction of pairs of reference blocks the candidate keeps in order. */
  readonly readingOrder: number;
  readonly blocksFound: { readonly found: number; readonly of: number };
}

const plain = (text: string): string => normalizeText(text).toLowerCase();

/**
 * Compare a candidate Markdown with the reference.
 *
 * @example
 * const c = compareDocument({ reference: gt, candidate: md })
 * console.log(c.editDistance, c.headingRecall, c.teds, c.readingOrder)
 */
export function compareDocument({ reference, candidate }: Readonly<{ reference: string; candidate: string }>): DocumentComparison {
  const ref = digestMarkdown(reference);
  const hyp = digestMarkdown(candidate);
  const hypHeadings = hyp.headings.map(plain);
  const matched = ref.headings.filter((h) => hypHeadings.some((c) => ratio(plain(h), c) >= 0.8)).length;
  // Each reference table is paired with the unused candidate table most like it, so a spurious
  // extra table in the candidate does not shift every pairing after it.
  const unused = new Set(hyp.tables.keys());
  const tedsScores = ref.tables.map((t) => {
    let best: [number, number] = [0, 0];
    let bestIndex: number | undefined;
    for (const i of unused) {
      const score = teds(t, hyp.tables[i]!);
      if (bestIndex === undefined || score > best[0]) {
        best = [score, teds(t, hyp.tables[i]!, { structureOnly: true })];
        bestIndex = i;
      }
    }
    if (bestIndex !== undefined) unused.delete(bestIndex);
    return best;
  });
  const mean = (values: readonly number[]): number | undefined => (values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0) / values.length);
  const order = readingOrder(ref.blocks, hyp.text);
  const headingRecall = ref.headings.length === 0 ? undefined : matched / ref.headings.length;
  const tedsMean = mean(tedsScores.map((s) => s[0]!));
  const tedsStructure = mean(tedsScores.map((s) => s[1]!));
  return {
    editDistance: normalizedEditDistance(plain(ref.text), plain(hyp.text)),
    ...(headingRecall === undefined ? {} : { headingRecall }),
    headings: { reference: ref.headings.length, candidate: hyp.headings.length, matched },
    ...(tedsMean === undefined ? {} : { teds: tedsMean }),
    ...(tedsStructure === undefined ? {} : { tedsStructure }),
    tables: { reference: ref.tables.length, candidate: hyp.tables.length },
    readingOrder: order.agreement,
    blocksFound: { found: order.found, of: order.blocks },
  };
}
