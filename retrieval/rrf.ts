/**
 * Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009): score(d) = Σ w_i / (k + rank_i(d)).
 * Done in Folio because the Elasticsearch build we run has no `rrf` retriever. Ranks, not scores,
 * are fused, so BM25's unbounded scores and cosine similarities need no normalising.
 */
import { ConfigurationError } from '../core/errors.ts';

export interface RrfOptions {
  /** Damps the head of each list; 60 is the paper's value. @default 60 */
  readonly k?: number;
  /** One weight per list. @default 1 for every list */
  readonly weights?: readonly number[];
}

export interface FusedItem<T> {
  readonly id: string;
  readonly score: number;
  /** 1-based rank in each input list, `undefined` where absent. */
  readonly ranks: readonly (number | undefined)[];
  /** The item as the first list containing it gave it. */
  readonly item: T;
}

/**
 * Fuses ranked lists of items with an `id`; the result is sorted best first, ties broken by the
 * best single rank and then by id so the order is deterministic.
 *
 * @example
 * reciprocalRankFusion([bm25Hits, knnHits], { k: 60 })[0].item
 */
export function reciprocalRankFusion<T extends { readonly id: string }>(lists: readonly (readonly T[])[], options: Readonly<RrfOptions> = {}): FusedItem<T>[] {
  const { k = 60, weights } = options;
  if (typeof k !== 'number' || !Number.isFinite(k) || k < 0) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`k\` to be a finite number from 0 and up, got \`${String(k)}\` (${typeof k})`);
  }
  if (weights !== undefined && weights.length !== lists.length) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`weights\` to have one entry per list (${lists.length}), got ${weights.length}`);
  }
  const fused = new Map<string, { score: number; ranks: (number | undefined)[]; item: T }>();
  lists.forEach((list, listIndex) => {
    const weight = weights?.[listIndex] ?? 1;
    const seen = new Set<string>();
    list.forEach((item, position) => {
      // A duplicate inside one list counts once, at its best rank.
      if (seen.has(item.id)) return;
      seen.add(item.id);
      const rank = position + 1;
      let entry = fused.get(item.id);
      if (!entry) {
        entry = { score: 0, ranks: new Array<number | undefined>(lists.length).fill(undefined), item };
        fused.set(item.id, entry);
      }
      entry.score += weight / (k + rank);
      entry.ranks[listIndex] = rank;
    });
  });
  const best = (ranks: readonly (number | undefined)[]) => Math.min(...ranks.map((r) => r ?? Infinity));
  return [...fused.entries()]
    .map(([id, entry]) => ({ id, ...entry }))
    .sort((a, b) => b.score - a.score || best(a.ranks) - best(b.ranks) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
