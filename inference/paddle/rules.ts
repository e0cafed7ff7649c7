/**
 * Rules drawn on a scan: long, thin, dark, straight runs of pixels (a table's horizontal and
 * vertical rules, a header's underline), found in the deskewed upright frame the lines are laid
 * out in, so the layout stage's ruled-table finder reads them as it reads a PDF's paths.
 *
 * A row of pixels is walked for dark runs that may break for a pixel or two (noise, JPEG); a
 * run counts when it is long (a share of the page) and nearly all ink. Glyph strokes never run that far at that density; a filled bar (shading, a black
 * banner) is thick, and is left out by its thickness.
 */

import type { PixelRule, PixelRules } from '../../core/types.ts';
import type { Rgb } from './raster.ts';
import type { Deskew } from './skew.ts';

export interface FindRulesOptions {
  /**
   * Shortest rule as a share of the page's side it runs along.
   * @default 0.04
   */
  readonly minShare?: number;
  /**
   * Thickest rule in pixels (thicker dark bands are fills, not rules).
   * @default 8
   */
  readonly maxThickness?: number;
  /**
   * Most rules kept each way: a page of nothing but rules (a grid, graph paper) stops there.
   * @default 1000
   */
  readonly maxRules?: number;
}

/** Share of a run that must be ink. */
const FILL = 0.92;
/** Longest break inside a run, in pixels. */
const BREAK = 2;

/**
 * The rules of an upright page, in its deskewed frame.
 *
 * @example
 * const rules = findPixelRules(upright, deskewFrame(skew, upright.width, upright.height));
 */
export function findPixelRules(image: Rgb, frame: Deskew, options: Readonly<FindRulesOptions> = {}): PixelRules {
  const { minShare = 0.04, maxThickness = 8, maxRules = 1000 } = options;
  const { width, height } = image;
  if (width < 16 || height < 16) return { horizontal: [], vertical: [] };
  const { rows, columns } = darkRuns(image, frame, Math.max(24, minShare * width), Math.max(24, minShare * height));
  return { horizontal: bands(rows, maxThickness, maxRules), vertical: bands(columns, maxThickness, maxRules) };
}

/**
 * The dense dark runs of every row and every column of the deskewed page, in one pass over
 * its pixels (this runs on every OCR page, beside recognition, so it reads each pixel once).
 * Ink is darker than half-way between the paper (a bright percentile) and the darkest ink (a
 * dark one); the deskewed page is sampled nearest-neighbour through the skew.
 */
function darkRuns(image: Rgb, frame: Deskew, minRow: number, minColumn: number): { rows: PixelRule[]; columns: PixelRule[] } {
  const { data, width, height } = image;
  const threshold = inkThreshold(image);
  const c = Math.cos(frame.skew);
  const s = Math.sin(frame.skew);
  const ox = width / 2;
  const oy = height / 2;
  const rows: PixelRule[] = [];
  const columns: PixelRule[] = [];
  // One open run per column, carried from row to row.
  const colStart = new Int32Array(width).fill(-1);
  const colLast = new Int32Array(width).fill(-1);
  const colInk = new Int32Array(width);
  const closeColumn = (x: number): void => {
    const span = colLast[x]! - colStart[x]! + 1;
    if (span >= minColumn && colInk[x]! >= FILL * span) columns.push({ at: x, from: colStart[x]!, to: colLast[x]! + 1 });
    colStart[x] = -1;
  };
  for (let y = 0; y < height; y++) {
    // The deskewed pixel (x, y) sits at (sx, sy) of the skewed upright image; both move by
    // (c, s) a step along the row.
    const dy = y - oy;
    let sx = ox - ox * c - dy * s + 0.5;
    let sy = oy - ox * s + dy * c + 0.5;
    let start = -1;
    let last = -1;
    let ink = 0;
    for (let x = 0; x < width; x++, sx += c, sy += s) {
      if (sx < 0 || sy < 0 || sx >= width || sy >= height) continue;
      // Green alone stands for the grey level: a rule is dark in every channel.
      if (data[((sy | 0) * width + (sx | 0)) * 3 + 1]! >= threshold) continue;
      if (start >= 0 && x - last - 1 > BREAK) {
        const span = last - start + 1;
        if (span >= minRow && ink >= FILL * span) rows.push({ at: y, from: start, to: last + 1 });
        start = -1;
      }
      if (start < 0) {
        start = x;
        ink = 0;
      }
      last = x;
      ink++;
      if (colStart[x]! >= 0 && y - colLast[x]! - 1 > BREAK) closeColumn(x);
      if (colStart[x]! < 0) {
        colStart[x] = y;
        colInk[x] = 0;
      }
      colLast[x] = y;
      colInk[x]!++;
    }
    if (start >= 0 && last - start + 1 >= minRow && ink >= FILL * (last - start + 1)) rows.push({ at: y, from: start, to: last + 1 });
  }
  for (let x = 0; x < width; x++) if (colStart[x]! >= 0) closeColumn(x);
  return { rows, columns: columns.sort((p, q) => p.at - q.at || p.from - q.from) };
}

/** Grey level below which a pixel is ink, from a sparse histogram of the page. */
function inkThreshold(image: Rgb): number {
  const { data, width, height } = image;
  const histogram = new Uint32Array(256);
  const step = Math.max(1, Math.floor((width * height) / 50_000));
  let seen = 0;
  for (let i = 0; i < width * height; i += step, seen++) histogram[data[i * 3 + 1]!]!++;
  const level = (share: number): number => {
    let sum = 0;
    for (let g = 0; g < 256; g++) {
      sum += histogram[g]!;
      if (sum >= share * seen) return g;
    }
    return 255;
  };
  return Math.min(160, (level(0.9) + level(0.01)) / 2);
}

/**
 * Runs on neighbouring rows that overlap make one stroke: a rule at their middle, kept when
 * the stroke is thin; the thick ones are fills.
 */
function bands(runs: readonly PixelRule[], maxThickness: number, maxRules: number): PixelRule[] {
  interface Band {
    first: number;
    last: number;
    from: number;
    to: number;
    /** Ink pixels of its runs: over its length, how thick it is (a rule a little off the axis spans more lines than it is thick). */
    ink: number;
  }
  const open: Band[] = [];
  const done: Band[] = [];
  for (const r of runs) {
    // Bands that ended more than one line back are closed.
    for (let i = open.length - 1; i >= 0; i--) {
      if (open[i]!.last < r.at - 1) done.push(...open.splice(i, 1));
    }
    const band = open.find(
      (b) => b.last >= r.at - 1 && b.last < r.at && Math.min(b.to, r.to) - Math.max(b.from, r.from) > 0.5 * Math.min(b.to - b.from, r.to - r.from),
    );
    if (band === undefined) open.push({ first: r.at, last: r.at, from: r.from, to: r.to, ink: r.to - r.from });
    else {
      band.last = r.at;
      band.from = Math.min(band.from, r.from);
      band.to = Math.max(band.to, r.to);
      band.ink += r.to - r.from;
    }
  }
  done.push(...open);
  const out: PixelRule[] = [];
  for (const b of done) {
    if (b.ink / (b.to - b.from) > maxThickness) continue;
    out.push({ at: (b.first + b.last + 1) / 2, from: b.from, to: b.to });
    if (out.length >= maxRules) break;
  }
  return out.sort((p, q) => p.at - q.at || p.from - q.from);
}
