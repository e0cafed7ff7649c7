import { stripGrounding } from '../markdown/grounding.ts';
import { loopTokens } from './loop-tokens.ts';

/**
 * Repetition loops: the failure where a decoder repeats an n-gram or a line until its token budget
 * runs out. Found as tandem repeats over word tokens (CJK characters count one each, HTML tags
 * one each), so a loop of words, of lines or of table rows all look the same.
 */

export interface Loop {
  /** Offsets in the text of the whole periodic run: [start, end). */
  readonly start: number;
  readonly end: number;
  /** Offset where the second copy starts: keeping [start, cut) keeps one copy. */
  readonly cut: number;
  /** Tokens per copy. */
  readonly period: number;
  /** Copies, the last one possibly partial (so a fraction). */
  readonly repeats: number;
  /** Tokens in the run. */
  readonly tokens: number;
  /** Degenerate: long and many times over, the page is not to be trusted. */
  readonly degenerate: boolean;
  /** The repeated unit, shortened, for reasons. */
  readonly sample: string;
}

export interface LoopScan {
  readonly tokens: number;
  readonly loops: readonly Loop[];
}

export interface RepetitionOptions {
  /**
   * Longest repeated unit looked for, in tokens (a line of OCR text is rarely longer).
   * @default 64
   */
  readonly maxPeriod?: number;
  /**
   * Copies that make a run degenerate.
   * @default 8
   */
  readonly minRepeats?: number;
  /**
   * Tokens a degenerate run must cover.
   * @default 40
   */
  readonly minTokens?: number;
}

const contentToken = /[\p{L}\p{N}]/u;

/**
 * Find tandem repeats in a text. Runs of 3+ copies over 24+ tokens are reported; `degenerate` marks
 * the ones a page must fail for. A unit of pure markup (`<td></td>`) must repeat 50 times to count:
 * an empty table legitimately repeats its cells.
 *
 * @example
 * findLoops('a b c '.repeat(30)).loops[0]?.period // 3
 */
export function findLoops(text: string, options: Readonly<RepetitionOptions> = {}): LoopScan {
  const { maxPeriod = 64, minRepeats = 8, minTokens = 40 } = options;
  // The parser and the gate scan the same page one after the other: remember the last scan.
  const key = `${maxPeriod}/${minRepeats}/${minTokens}`;
  if (last && last.text === text && last.key === key) return last.scan;
  const scan = scanLoops(text, maxPeriod, minRepeats, minTokens);
  last = { text, key, scan };
  return scan;
}

let last: { text: string; key: string; scan: LoopScan } | undefined;

function scanLoops(text: string, maxPeriod: number, minRepeats: number, minTokens: number): LoopScan {
  const { starts, ends } = loopTokens(text);
  const ids: number[] = [];
  const dictionary = new Map<string, number>();
  const markupOnly: boolean[] = [];
  for (let t = 0; t < starts.length; t++) {
    const token = text.slice(starts[t] as number, ends[t] as number);
    let id = dictionary.get(token);
    if (id === undefined) {
      id = dictionary.size;
      dictionary.set(token, id);
      markupOnly[id] = !contentToken.test(token) || token.startsWith('<');
    }
    ids.push(id);
  }
  const n = ids.length;
  const candidates: { from: number; length: number; period: number }[] = [];
  for (let period = 1; period <= Math.min(maxPeriod, n >> 1); period++) {
    // A reported run has at least this many consecutive matches, so probing every `stride`-th
    // position cannot miss one; a hit is then grown both ways.
    const minRun = Math.max(24 - period, 2 * period);
    const stride = Math.max(1, minRun);
    let i = 0;
    while (i + period < n) {
      if (ids[i] !== ids[i + period]) {
        i += stride;
        continue;
      }
      let lo = i;
      while (lo > 0 && ids[lo - 1] === ids[lo - 1 + period]) lo--;
      let hi = i;
      while (hi + 1 + period < n && ids[hi + 1] === ids[hi + 1 + period]) hi++;
      const run = hi - lo + 1;
      if (run >= minRun) candidates.push({ from: lo, length: run + period, period });
      i = hi + 2;
    }
  }
  // Longest runs first, shortest period on ties: a loop of period p also matches at 2p, 3p, …
  candidates.sort((a, b) => b.length - a.length || a.period - b.period);
  const taken: { from: number; to: number }[] = [];
  const loops: Loop[] = [];
  for (const candidate of candidates) {
    const to = candidate.from + candidate.length;
    if (taken.some((range) => candidate.from < range.to && to > range.from)) continue;
    taken.push({ from: candidate.from, to });
    const unit = ids.slice(candidate.from, candidate.from + candidate.period);
    const markup = unit.every((id) => markupOnly[id]);
    const repeats = candidate.length / candidate.period;
    const degenerate = markup ? repeats >= 50 : repeats >= minRepeats && candidate.length >= minTokens;
    const start = starts[candidate.from]!;
    loops.push({
      start,
      end: ends[to - 1]!,
      cut: starts[candidate.from + candidate.period]!,
      period: candidate.period,
      repeats: Math.round(repeats * 10) / 10,
      tokens: candidate.length,
      degenerate,
      sample: text
        .slice(start, ends[candidate.from + candidate.period - 1]!)
        .replace(/\s+/gu, ' ')
        .slice(0, 60),
    });
  }
  loops.sort((a, b) => a.start - b.start);
  return { tokens: n, loops };
}

/**
 * Cut degenerate loops down to one copy. Used before parsing and by the renderer, so a page stuck
 * in a loop still yields its real content once; the quality gate reports the loop all the same.
 *
 * @example
 * collapseRepetition('Intro. ' + 'the same line\n'.repeat(50)).collapsed // 1
 */
export function collapseRepetition(markdown: string, options: Readonly<RepetitionOptions> = {}): { markdown: string; collapsed: number } {
  if (markdown.length < 48) return { markdown, collapsed: 0 };
  // Scan with grounding tags blanked (same offsets): a tag before every repeated line must not hide the loop.
  const loops = findLoops(stripGrounding(markdown).text, options).loops.filter((loop) => loop.degenerate);
  if (loops.length === 0) return { markdown, collapsed: 0 };
  let out = '';
  let cursor = 0;
  for (const loop of loops) {
    out += markdown.slice(cursor, loop.cut);
    cursor = loop.end;
  }
  out += markdown.slice(cursor);
  return { markdown: out, collapsed: loops.length };
}
