/**
 * Figures for one page read by one engine: CER against the truth, and word recall (the share of
 * the truth's words found anywhere in the output, order ignored). CER mixes misread, missing and
 * misordered text; recall beside it says which: high recall with a high CER is reading order,
 * low recall is text that was never read.
 */
import { characterErrorRate, plainText } from '../ocr/index.ts';

export interface PageScore {
  readonly cer: number;
  readonly wordRecall: number;
  /** Characters of the output (plain text) over characters of the truth. */
  readonly lengthRatio: number;
}

/**
 * Score an engine's Markdown (or text) against the truth text.
 *
 * @example
 * scorePage('Hello wrld', 'Hello world') // { cer: 1/11, wordRecall: 0.5, lengthRatio: 10/11 }
 */
export function scorePage(hypothesis: string, truth: string): PageScore {
  const hyp = plainText(hypothesis);
  const ref = plainText(truth);
  const count = (text: string): Map<string, number> => {
    const m = new Map<string, number>();
    for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) m.set(w, (m.get(w) ?? 0) + 1);
    return m;
  };
  const want = count(ref);
  const got = count(hyp);
  let found = 0;
  let total = 0;
  for (const [w, n] of want) {
    total += n;
    found += Math.min(n, got.get(w) ?? 0);
  }
  return {
    cer: characterErrorRate(hyp, ref),
    wordRecall: total === 0 ? 1 : found / total,
    lengthRatio: ref.length === 0 ? (hyp.length === 0 ? 1 : Infinity) : [...hyp].length / [...ref].length,
  };
}
