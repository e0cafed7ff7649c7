/**
 * ICDAR 2013 adjacency-relation F1 (the metric of `icdar2013-dev/README.md`): tables matched
 * greedily by relation overlap within each document, micro-averaged over the set.
 */

import type { Grid } from './grid.ts';
import { overlap, relationCount, relations } from './grid.ts';

export interface RelationCounts {
  /** Relations of matched pairs found in both. */
  readonly correct: number;
  /** Relations of the predicted tables that were matched. */
  readonly predicted: number;
  /** Relations of all ground-truth tables. */
  readonly truth: number;
}

export interface RelationScore extends RelationCounts {
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
}

/** P, R, F1 from counts; 0/0 = 0. */
export function scoreCounts(c: Readonly<RelationCounts>): RelationScore {
  const precision = c.predicted === 0 ? 0 : c.correct / c.predicted;
  const recall = c.truth === 0 ? 0 : c.correct / c.truth;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { ...c, precision, recall, f1 };
}

/**
 * One document: pair ground-truth and predicted tables greedily, largest overlap first (ties by
 * table order), each at most once, never a pair with overlap 0.
 *
 * @example
 * documentCounts(truthGrids, predictedTables(markdown)) // { correct, predicted, truth }
 */
export function documentCounts(truth: readonly Grid[], predicted: readonly Grid[]): RelationCounts {
  const t = truth.map(relations);
  const p = predicted.map(relations);
  const pairs: { i: number; j: number; n: number }[] = [];
  t.forEach((a, i) =>
    p.forEach((b, j) => {
      const n = overlap(a, b);
      if (n > 0) pairs.push({ i, j, n });
    }),
  );
  pairs.sort((x, y) => y.n - x.n || x.i - y.i || x.j - y.j);
  const usedT = new Set<number>();
  const usedP = new Set<number>();
  let correct = 0;
  let matchedPredicted = 0;
  for (const { i, j, n } of pairs) {
    if (usedT.has(i) || usedP.has(j)) continue;
    usedT.add(i);
    usedP.add(j);
    correct += n;
    matchedPredicted += relationCount(p[j]!);
  }
  return { correct, predicted: matchedPredicted, truth: t.reduce((s, r) => s + relationCount(r), 0) };
}

/** Micro-average: sums over documents, then P, R, F1. */
export function microAverage(docs: readonly RelationCounts[]): RelationScore {
  return scoreCounts(
    docs.reduce((s, d) => ({ correct: s.correct + d.correct, predicted: s.predicted + d.predicted, truth: s.truth + d.truth }), {
      correct: 0,
      predicted: 0,
      truth: 0,
    }),
  );
}
