/**
 * {@link Run}s (from `page-text.ts`) → {@link Fragment}s: runs of one baseline joined into line
 * pieces, split at wide gaps (column gutters, table cells).
 */
import { italicLetter, strongMathCue, visualToLogical } from '../layout/index.ts';
import type { Fragment, Run } from './types.ts';

/**
 * Group runs into rows by baseline, then split each row where the gap is wider than
 * `splitGap` × font size (column gutters, table cells). O(n log n): one sort and one sweep.
 */
export function toFragments(runs: readonly Run[], splitGap = 1.0): Fragment[] {
  const sorted = attachDropCaps(runs)
    .map(onTextBaseline)
    .sort((p, q) => p.y - q.y || p.x0 - q.x0);
  const rows: Run[][] = [];
  let row: Run[] = [];
  // The row's reference span is its tallest run, so sub- and superscripts join their line.
  let refTop = 0;
  let refBottom = 0;
  let refSize = 0;
  let refY = 0;
  for (const run of sorted) {
    const overlap = Math.min(refBottom, run.bottom) - Math.max(refTop, run.top);
    const ratio = refSize > 0 ? run.size / refSize : 1;
    // Same-size text must share the baseline: a line of another column with a different
    // pitch may overlap two lines here. Sub/superscripts and bigger text join by overlap,
    // and only similar sizes move the reference (a drop cap would swallow the next line).
    const sameRow = row.length > 0 && (ratio >= 0.85 && ratio <= 1.18 ? Math.abs(run.y - refY) <= 0.3 * refSize : overlap >= 0.5 * Math.min(refSize, run.size));
    if (sameRow) {
      row.push(run);
      continue;
    }
    if (row.length > 0) rows.push(row);
    row = [run];
    refTop = run.top;
    refBottom = run.bottom;
    refSize = run.size;
    refY = run.y;
  }
  if (row.length > 0) rows.push(row);

  const fragments: Fragment[] = [];
  for (const r of withScriptsJoined(rows)) {
    r.sort((p, q) => p.x0 - q.x0);
    const rowSize = mainSize(r);
    let current: { runs: Run[]; x1: number; pendingSpace: boolean; text: string } | undefined;
    const flush = (): void => {
      if (current === undefined) return;
      const fragment = fragmentOf(current.runs, current.text);
      if (fragment !== undefined) fragments.push(fragment);
      current = undefined;
    };
    for (const run of r) {
      if (run.space) {
        if (current !== undefined) current.pendingSpace = true;
        continue;
      }
      if (current !== undefined) {
        const gap = run.x0 - current.x1;
        const last = current.runs[current.runs.length - 1] as Run;
        const size = Math.min(run.size, last.size);
        const ratio = run.size / last.size;
        // Runs of one row but of different lines (other columns) must not interleave.
        // Scripts are off each other's baseline by design (limits `k` over `i=1` beside a `∑`).
        // Only short runs: lines of small text in another column beside the row stay apart.
        const scripts = run.size < 0.85 * rowSize && last.size < 0.85 * rowSize && run.text.trim().length <= 4 && last.text.trim().length <= 4;
        const offLine = ratio >= 0.85 && ratio <= 1.18 && Math.abs(run.y - last.y) > 0.3 * size && !scripts;
        // Stacked scripts start at one x (a sub- and a superscript on one glyph): no overlap of lines.
        if (gap > splitGap * size || gap < (scripts ? -2 : -0.5) * size || offLine) {
          flush();
        } else {
          const needsSpace = current.pendingSpace || gap > 0.15 * size;
          const joined = needsSpace && !current.text.endsWith(' ') && !run.text.startsWith(' ') ? ' ' : '';
          current.text += joined + run.text;
          current.runs.push(run);
          current.x1 = Math.max(current.x1, run.x1);
          current.pendingSpace = false;
          continue;
        }
      }
      current = { runs: [run], x1: run.x1, pendingSpace: false, text: run.text };
    }
    flush();
  }
  return fragments;
}

/**
 * TeX's extension font (cmex) hangs its glyphs below their reference point: a text-style `∑` or
 * a big bracket has its origin at its top, the ink an em below it, so the text layer puts its
 * baseline well over the line it sits in. Here it goes on the baseline of that line (TeX centres
 * it on the math axis, three quarters of an em under its top), so that it and its limits join the
 * line. Display formulas (`formula/bands.ts`) read the runs themselves, where they were.
 */
function onTextBaseline(run: Run): Run {
  // Pieces of an extensible delimiter come as control codes: they stay where they are, with the
  // display formula whose rows they span.
  if (!/CMEX/i.test(run.font) || !/[^\s\x00-\x1f]/.test(run.text)) return run;
  return { ...run, y: run.y + 0.75 * run.size, top: run.y, bottom: run.y + run.size };
}

/** The size most of a row's characters are set in. */
function mainSize(row: readonly Run[]): number {
  const weight = new Map<number, number>();
  for (const run of row) weight.set(run.size, (weight.get(run.size) ?? 0) + run.text.length);
  return argmax(weight) ?? 0;
}

/** More runs than this in a row of small text are no line's scripts. */
const MAX_SCRIPT_RUNS = 200;

/**
 * A row of small runs only, each overlapping a neighbouring row of bigger text by a third of its
 * own height and touching one of its runs, holds that row's scripts: a superscript sorts before its line and a prime beside it
 * may start a row of its own (`x²` on one line, `g′` on the next). Such a row joins the bigger one.
 */
function withScriptsJoined(rows: Run[][]): Run[][] {
  const out = rows.map((r) => [...r]);
  const sizeOf = (r: readonly Run[]): number => Math.max(...r.map((x) => x.size));
  for (let i = 0; i < out.length; i++) {
    const small = out[i]!;
    if (small.length === 0) continue;
    for (const k of [i + 1, i - 1]) {
      const big = out[k];
      if (big === undefined || big.length === 0 || sizeOf(small) >= 0.85 * sizeOf(big)) continue;
      const top = Math.min(...big.map((x) => x.top));
      const bottom = Math.max(...big.map((x) => x.bottom));
      // A script starts where the glyph it is set on ends; a smaller label before a line's text
      // (a form's field name, a table cell) does not.
      // It is short and off that glyph's baseline.
      // A script may follow another script (`g′` in `λ_{g′}`) if one of them is on the line's glyph.
      const follows = (x: Run, bases: readonly Run[]): boolean =>
        bases.some((b) => b !== x && Math.abs(x.x0 - b.x1) < 0.3 * b.size && Math.abs(x.y - b.y) > 0.1 * Math.max(b.size, x.size));
      // A script goes on along its own baseline (`i`, `=`, `1` of a limit `i=1` set beside a `∑`):
      // a run touching a script that is attached, on that script's baseline, is part of it.
      const along = (x: Run, b: Run): boolean =>
        b !== x && Math.abs(x.y - b.y) <= 0.1 * x.size && Math.min(Math.abs(x.x0 - b.x1), Math.abs(b.x0 - x.x1)) < 0.3 * x.size;
      const fits = (x: Run): boolean => x.text.trim().length <= 4 && Math.min(bottom, x.bottom) - Math.max(top, x.top) >= x.size / 3;
      // The scripts of one line are a few dozen runs at most; a longer row of small runs is text of
      // its own, and the growth below (quadratic per step) is not spent on it.
      if (small.length > MAX_SCRIPT_RUNS) continue;
      const attached = new Set(small.filter((x) => fits(x) && follows(x, [...big, ...small])));
      for (let grown = true; grown; ) {
        grown = false;
        for (const x of small)
          if (!attached.has(x) && fits(x) && [...attached].some((b) => along(x, b))) {
            attached.add(x);
            grown = true;
          }
      }
      if (attached.size < small.length || !small.some((x) => follows(x, big))) continue;
      big.push(...small);
      small.length = 0;
      break;
    }
  }
  return out.filter((r) => r.length > 0);
}

/**
 * A drop cap (one big capital beside the first lines of a paragraph) belongs to the start of
 * the first line to its right: `O` + `ver the past` → `Over the past`. It is moved onto that
 * line's baseline and size, touching its first word so no space is put between them.
 */
function attachDropCaps(runs: readonly Run[]): Run[] {
  const out = [...runs];
  if (out.length === 0) return out;
  // Only letters far bigger than the typical run qualify, so the inner scan runs rarely
  // (a map with thousands of one-letter labels must stay linear).
  // A typed array sorts numbers natively, without a comparator call per pair.
  const sizes = Float64Array.from(out, (r) => r.size).sort();
  const typical = sizes[Math.floor(sizes.length / 2)] as number;
  for (let i = 0; i < out.length; i++) {
    const cap = out[i] as Run;
    if (cap.size < 2 * typical || cap.text.trim().length !== 1 || !/\p{Lu}/u.test(cap.text)) continue;
    let best: Run | undefined;
    for (const run of out) {
      if (run === cap || run.space || run.size * 1.8 > cap.size) continue;
      if (run.x0 < cap.x1 - 1 || run.x0 > cap.x1 + 2 * run.size) continue;
      if (run.top < cap.top - 0.5 * run.size || run.bottom > cap.bottom + 0.5 * run.size) continue;
      if (best === undefined || run.y < best.y) best = run;
    }
    if (best === undefined) continue;
    const width = Math.min(cap.x1 - cap.x0, best.size);
    out[i] = { ...cap, x0: best.x0 - width, x1: best.x0, y: best.y, top: best.top, bottom: best.bottom, size: best.size, font: best.font };
  }
  return out;
}

/** Spacing accents as TeX sets them (`J´an Min´aˇc`) → combining marks, then composed (`Ján Mináč`). */
const COMBINING: Readonly<Record<string, string>> = {
  '\u00b4': '\u0301',
  '\u02c6': '\u0302',
  '\u02dc': '\u0303',
  '\u00a8': '\u0308',
  '\u02c7': '\u030c',
  '\u02d8': '\u0306',
  '\u02da': '\u030a',
  '\u02d9': '\u0307',
  '\u00af': '\u0304',
  '`': '\u0300',
};
const SPACING_ACCENT = /(?<=\p{L}|^|\s)([\u00b4\u02c6\u02dc\u00a8\u02c7\u02d8\u02da\u02d9\u00af`])\s?(\p{L})/gu;

/** Clean a fragment's text: composed accents, `‘‘quotes’’` as real double quotes. */
export function cleanText(text: string): string {
  let out = text.replace(/\s+/g, ' ').trim();
  if (/[\u00b4\u02c6\u02dc\u00a8\u02c7\u02d8\u02da\u02d9\u00af`]/.test(out)) {
    out = out.replace(SPACING_ACCENT, (_, accent: string, letter: string) => (letter + (COMBINING[accent] ?? '')).normalize('NFC'));
  }
  if (out.includes('\u2018\u2018')) out = out.replace(/\u2018\u2018/g, '\u201c');
  if (out.includes('\u2019\u2019')) out = out.replace(/\u2019\u2019/g, '\u201d');
  return out;
}

function fragmentOf(runs: readonly Run[], rawText: string): Fragment | undefined {
  // Runs are joined in visual order; right-to-left text goes back to reading order here.
  const text = visualToLogical(cleanText(rawText));
  // Dot leaders and rules drawn with characters carry no text.
  if (text === '' || (text.length >= 8 && /^[.·•_\-–—\s]+$/u.test(text))) return undefined;
  if (runs.length === 1) {
    // Most fragments are one run: no weighing.
    const run = runs[0] as Run;
    return { text, x0: run.x0, x1: run.x1, y: run.y, top: run.top, bottom: run.bottom, size: Math.round(run.size * 10) / 10, font: run.font };
  }
  let x0 = Infinity;
  let x1 = -Infinity;
  let top = Infinity;
  let bottom = -Infinity;
  // Size and baseline of the fragment are those of its main text, by character count.
  const weightBySize = new Map<number, number>();
  const weightByFont = new Map<string, number>();
  let y = 0;
  let bestLength = -1;
  for (const run of runs) {
    x0 = Math.min(x0, run.x0);
    x1 = Math.max(x1, run.x1);
    top = Math.min(top, run.top);
    bottom = Math.max(bottom, run.bottom);
    const size = Math.round(run.size * 10) / 10;
    weightBySize.set(size, (weightBySize.get(size) ?? 0) + run.text.length);
    weightByFont.set(run.font, (weightByFont.get(run.font) ?? 0) + run.text.length);
    if (run.text.length > bestLength) {
      bestLength = run.text.length;
      y = run.y;
    }
  }
  const size = argmax(weightBySize) ?? 0;
  const fragment: Fragment = { text, x0, x1, y, top, bottom, size, font: argmax(weightByFont) ?? '' };
  // Keep the runs where they may be needed: a formula is rebuilt from their baselines and
  // sizes, and figures of table cells that ran together are split at them.
  // A math run among others (a math font, a math-only glyph, an italic letter) marks an inline
  // formula in a sentence: its runs are kept too. So are those of a fragment that opens in
  // another face than its main one: a run-in head (`**Proof.** Let …`, `run-in.ts`).
  if (
    /\d/.test(text) ||
    (runs[0] as Run).font !== fragment.font ||
    runs.some((r) => Math.abs(r.y - y) > 0.1 * size || Math.abs(r.size - size) > 0.1 * size) ||
    (runs.some((r) => strongMathCue(r.text, r.font) || italicLetter(r.text, r.font)) && runs.some((r) => r.font !== runs[0]!.font))
  ) {
    fragment.pieces = runs
      .filter((r) => !r.space)
      .map((r) => ({ text: visualToLogical(cleanText(r.text)), x0: r.x0, x1: r.x1, y: r.y, size: r.size, font: r.font }));
  }
  return fragment;
}

export function argmax<K>(weights: ReadonlyMap<K, number>): K | undefined {
  let best: K | undefined;
  let bestWeight = -Infinity;
  for (const [key, weight] of weights) {
    if (weight > bestWeight) {
      best = key;
      bestWeight = weight;
    }
  }
  return best;
}
