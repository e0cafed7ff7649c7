/**
 * pdfjs text items → {@link Run}s in displayed page coordinates, and runs → {@link Fragment}s.
 *
 * Each item's matrix is composed with the viewport's, so rotated pages (`/Rotate 90`) come out
 * upright. Items that are still not horizontal (a vertical arXiv stamp, rotated axis labels)
 * are returned apart, so they do not break lines of the body.
 */
import type { Fragment, Run } from './types.ts';

/** The subset of a pdfjs `TextItem` this module reads. */
export interface RawTextItem {
  readonly str: string;
  readonly transform: readonly number[];
  readonly width: number;
  readonly fontName: string;
}

export interface RunsResult {
  readonly runs: Run[];
  /** Text of items that are not horizontal on the displayed page. */
  readonly rotated: string[];
  /** Items read (text items, whitespace included). */
  readonly items: number;
}

/** Share of the font size above the baseline; pdfjs' own ascent is per font and often 0. */
const ASCENT = 0.78;
const DESCENT = 0.22;

export function toRuns(items: readonly unknown[], viewport: readonly number[]): RunsResult {
  const [va = 1, vb = 0, vc = 0, vd = 1, ve = 0, vf = 0] = viewport;
  const runs: Run[] = [];
  const rotated: string[] = [];
  let count = 0;
  for (const raw of items) {
    const item = raw as RawTextItem;
    if (typeof item.str !== 'string' || item.str === '' || !Array.isArray(item.transform)) continue;
    count++;
    const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = item.transform;
    // m = viewport × item: item space → displayed page space.
    const ma = va * a + vc * b;
    const mb = vb * a + vd * b;
    const mc = va * c + vc * d;
    const md = vb * c + vd * d;
    const x = va * e + vc * f + ve;
    const y = vb * e + vd * f + vf;
    const size = Math.hypot(mc, md);
    const scaleX = Math.hypot(ma, mb);
    if (!(size > 0.5) || !(scaleX > 0)) continue;
    // Horizontal and left-to-right after the viewport: |mb| small, ma positive.
    if (Math.abs(mb) > 0.1 * scaleX || ma < 0) {
      if (item.str.trim() !== '') rotated.push(item.str);
      continue;
    }
    const space = item.str.trim() === '';
    runs.push({
      text: item.str,
      x0: x,
      x1: x + Math.max(0, item.width),
      y,
      top: y - ASCENT * size,
      bottom: y + DESCENT * size,
      size,
      font: item.fontName,
      space,
    });
  }
  return { runs, rotated, items: count };
}

/**
 * Group runs into rows by baseline, then split each row where the gap is wider than
 * `splitGap` × font size (column gutters, table cells). O(n log n): one sort and one sweep.
 */
export function toFragments(runs: readonly Run[], splitGap = 1.0): Fragment[] {
  const sorted = attachDropCaps(runs).sort((p, q) => p.y - q.y || p.x0 - q.x0);
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
    const sameRow =
      row.length > 0 &&
      (ratio >= 0.85 && ratio <= 1.18 ? Math.abs(run.y - refY) <= 0.3 * refSize : overlap >= 0.5 * Math.min(refSize, run.size));
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
  for (const r of rows) {
    r.sort((p, q) => p.x0 - q.x0);
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
        const offLine = ratio >= 0.85 && ratio <= 1.18 && Math.abs(run.y - last.y) > 0.3 * size;
        if (gap > splitGap * size || gap < -0.5 * size || offLine) {
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
 * A drop cap (one big capital beside the first lines of a paragraph) belongs to the start of
 * the first line to its right: `O` + `ver the past` → `Over the past`. It is moved onto that
 * line's baseline and size, touching its first word so no space is put between them.
 */
function attachDropCaps(runs: readonly Run[]): Run[] {
  const out = [...runs];
  if (out.length === 0) return out;
  // Only letters far bigger than the typical run qualify, so the inner scan runs rarely
  // (a map with thousands of one-letter labels must stay linear).
  const sizes = out.map((r) => r.size).sort((a, b) => a - b);
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
  '\u00b4': '\u0301', '\u02c6': '\u0302', '\u02dc': '\u0303', '\u00a8': '\u0308', '\u02c7': '\u030c',
  '\u02d8': '\u0306', '\u02da': '\u030a', '\u02d9': '\u0307', '\u00af': '\u0304', '`': '\u0300',
};
const SPACING_ACCENT = /(?<=\p{L}|^|\s)([\u00b4\u02c6\u02dc\u00a8\u02c7\u02d8\u02da\u02d9\u00af`])\s?(\p{L})/gu;

/** Clean a fragment's text: composed accents, `‘‘quotes’’` as real double quotes. */
export function cleanText(text: string): string {
  let out = text.replace(/\s+/g, ' ').trim();
  if (/[\u00b4\u02c6\u02dc\u00a8\u02c7\u02d8\u02da\u02d9\u00af`]/.test(out)) {
    out = out.replace(SPACING_ACCENT, (_, accent: string, letter: string) => (letter + (COMBINING[accent] ?? '')).normalize('NFC'));
  }
  return out.replace(/\u2018\u2018/g, '\u201c').replace(/\u2019\u2019/g, '\u201d');
}

function fragmentOf(runs: readonly Run[], rawText: string): Fragment | undefined {
  const text = cleanText(rawText);
  // Dot leaders and rules drawn with characters carry no text.
  if (text === '' || (text.length >= 8 && /^[.·•_\-–—\s]+$/u.test(text))) return undefined;
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
  return { text, x0, x1, y, top, bottom, size: argmax(weightBySize) ?? 0, font: argmax(weightByFont) ?? '' };
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
