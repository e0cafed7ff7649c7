/**
 * Reading-order agreement: where do the reference's text blocks appear in the candidate text, and
 * how many pairs of them appear in the same order as in the reference.
 */
import { nearMatchStarts } from '../olmocr/fuzzy.ts';

export interface ReadingOrderResult {
  /** Reference blocks considered (long enough to locate). */
  readonly blocks: number;
  /** Of those, found in the candidate. */
  readonly found: number;
  /** Fraction of pairs of found blocks in reference order; 1 when fewer than two were found. */
  readonly agreement: number;
}

export interface ReadingOrderOptions {
  /**
   * Characters of each block's start used to locate it.
   * @default 40
   */
  readonly probe?: number;
  /**
   * Edits allowed when locating a block's probe.
   * @default 4
   */
  readonly maxEdits?: number;
}

const squash = (text: string): string => text.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * Locate each reference block (by its first `probe` characters, fuzzily) in the candidate and
 * count concordant pairs (Kendall's tau as a fraction of pairs). The k-th copy of a repeated
 * block is matched with the k-th occurrence of its probe.
 *
 * @example
 * readingOrder(['first block text here…', 'second block…'], candidateText)
 */
export function readingOrder(
  blocks: readonly string[],
  candidate: string,
  { probe = 40, maxEdits = 4 }: Readonly<ReadingOrderOptions> = {},
): ReadingOrderResult {
  const text = squash(candidate);
  // Short blocks ("Table 1", page numbers) are too ambiguous to locate.
  const probes = blocks
    .map(squash)
    .filter((b) => b.length >= probe)
    .map((b) => b.slice(0, probe));
  // Repeated blocks (boilerplate, lorem ipsum) share a probe: the k-th copy in the reference is
  // matched with the k-th occurrence in the candidate.
  const occurrences = new Map<string, number[]>();
  const used = new Map<string, number>();
  const positions: number[] = [];
  for (const p of probes) {
    let found = occurrences.get(p);
    if (!found) {
      found = [];
      for (let at = text.indexOf(p); at >= 0; at = text.indexOf(p, at + 1)) found.push(at);
      if (found.length === 0) {
        // Fuzzy starts come in runs around each occurrence; keep the first of each run.
        for (const at of nearMatchStarts(p, text, maxEdits)) if (found.length === 0 || at - found.at(-1)! > 2 * maxEdits) found.push(at);
      }
      occurrences.set(p, found);
    }
    const k = used.get(p) ?? 0;
    used.set(p, k + 1);
    const at = found[Math.min(k, found.length - 1)];
    if (at !== undefined && k < found.length) positions.push(at);
  }
  let pairs = 0;
  let concordant = 0;
  for (let i = 0; i < positions.length; i++) {
    for (let j = i + 1; j < positions.length; j++) {
      // Two probes at one spot (one block a prefix of another) say nothing about order.
      if (positions[i] === positions[j]) continue;
      pairs++;
      if (positions[i]! < positions[j]!) concordant++;
    }
  }
  return { blocks: probes.length, found: positions.length, agreement: pairs === 0 ? 1 : concordant / pairs };
}
