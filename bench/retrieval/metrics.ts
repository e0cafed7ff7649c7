/** Ranking metrics for the retrieval bench: a question is answered when a hit lies on a relevant page. */
import { basename } from 'node:path';
import type { SearchHit } from '../../retrieval/index.ts';
import type { RetrievalQuestion } from './questions.ts';

/** 1-based rank of the first hit on a relevant page, or undefined when none of `hits` is. */
export function firstRelevantRank(hits: readonly Pick<SearchHit, 'source' | 'pages'>[], relevant: RetrievalQuestion['relevant']): number | undefined {
  const index = hits.findIndex((hit) => {
    const file = basename(hit.source.replace(/^file:\/\//, ''));
    return relevant.some((r) => r.file === file && hit.pages.includes(r.page));
  });
  return index < 0 ? undefined : index + 1;
}

export interface RankingScores {
  readonly questions: number;
  /** Share of questions with a relevant hit in the top `k`. */
  readonly recallAtK: number;
  /** Mean of 1/rank of the first relevant hit (0 when none in the list). */
  readonly mrr: number;
}

/** Recall@k and MRR over first-relevant ranks (undefined = not found). */
export function rankingScores(ranks: readonly (number | undefined)[], k: number): RankingScores {
  const n = ranks.length;
  if (n === 0) return { questions: 0, recallAtK: 0, mrr: 0 };
  const found = ranks.filter((r) => r !== undefined && r <= k).length;
  const rr = ranks.reduce<number>((sum, r) => sum + (r === undefined ? 0 : 1 / r), 0);
  return { questions: n, recallAtK: found / n, mrr: rr / n };
}
