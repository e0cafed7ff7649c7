/**
 * Column gutters from whitespace. A gutter is an x position (in the deskewed frame) where many
 * body lines end just left of it, many begin just right of it, and almost none run across: DB
 * now and then joins two lines across a narrow gutter, and one such line must not hide the
 * column from the reading order. Lines that do run across are cut there before recognition,
 * where the image is white at the gutter.
 */
import type { RotatedBox } from './geometry.ts';
import { median } from './numbers.ts';
import type { Rgb } from './raster.ts';

type Bounds = readonly [number, number, number, number];

export interface GutterOptions {
  /** Fewest lines that must end left of and begin right of a gutter. @default 4 */
  readonly minLines?: number;
  /** Most lines crossing a gutter, as a share of the lines that end and begin at it. @default 0.25 */
  readonly maxCrossing?: number;
}

/**
 * Gutter x positions of a page from its line bounds (deskewed frame), left to right.
 *
 * @example
 * const gutters = findGutters(lines.map((l) => frame.bounds(l.box)));
 */
export function findGutters(bounds: readonly Bounds[], options: Readonly<GutterOptions> = {}): number[] {
  const { minLines = 4, maxCrossing = 0.25 } = options;
  if (bounds.length < 2 * minLines) return [];
  const h = median(bounds.map((b) => b[3] - b[1]));
  if (!(h > 0)) return [];
  // Body lines only: headings and big type have other margins, specks have none.
  const body = bounds.filter((b) => b[3] - b[1] < 1.6 * h && b[3] - b[1] > 0.6 * h && b[2] - b[0] > 2 * h);
  const left = Math.min(...body.map((b) => b[0]));
  const right = Math.max(...body.map((b) => b[2]));
  const step = Math.max(1, h / 4);
  const window = 1.5 * h;
  const candidates: { x: number; strength: number }[] = [];
  for (let x = left + 2 * h; x < right - 2 * h; x += step) {
    let ends = 0;
    let starts = 0;
    let crossing = 0;
    for (const [x1, , x2] of body) {
      if (x2 <= x + 0.25 * h && x2 > x - window) ends++;
      else if (x1 >= x - 0.25 * h && x1 < x + window) starts++;
      if (x1 < x - h && x2 > x + h) crossing++;
    }
    const strength = Math.min(ends, starts);
    if (strength >= minLines && crossing <= maxCrossing * strength) candidates.push({ x, strength: strength - crossing });
  }
  // Neighbouring candidates are one gutter: keep the strongest of each run.
  const gutters: number[] = [];
  let run: { x: number; strength: number }[] = [];
  const flush = (): void => {
    if (run.length === 0) return;
    const best = Math.max(...run.map((c) => c.strength));
    const top = run.filter((c) => c.strength === best);
    gutters.push((top[0]!.x + top[top.length - 1]!.x) / 2);
    run = [];
  };
  for (const c of candidates) {
    if (run.length > 0 && c.x - run[run.length - 1]!.x > step * 1.5) flush();
    run.push(c);
  }
  flush();
  return gutters;
}

/**
 * Cut a line that runs across a gutter at the gutter, where the image along the line is white
 * for at least `minWhite` of the line's height around it (a word space is about a third). The
 * line's position along its axis in the deskewed frame starts at `x1`.
 */
export function cutAtGutters(image: Rgb, box: RotatedBox, x1: number, gutters: readonly number[], minWhite = 0.45): RotatedBox[] {
  const inside = gutters.map((g) => g - x1).filter((u) => u > box.h && u < box.w - box.h);
  if (inside.length === 0) return [box];
  const c = Math.cos(box.angle);
  const s = Math.sin(box.angle);
  const { data, width, height } = image;
  const grey = (u: number, v: number): number => {
    const x = Math.round(box.cx + (u - box.w / 2) * c - v * s);
    const y = Math.round(box.cy + (u - box.w / 2) * s + v * c);
    if (x < 0 || y < 0 || x >= width || y >= height) return 255;
    const i = (y * width + x) * 3;
    return (data[i]! + data[i + 1]! + data[i + 2]!) / 3;
  };
  const half = box.h * 0.3;
  const blank = (u: number, threshold: number): boolean => {
    for (let v = -half; v <= half; v += 1) if (grey(u, v) < threshold) return false;
    return true;
  };
  // Ink is what is much darker than the line's paper (noise keeps paper well above the middle).
  let lo = 255;
  let hi = 0;
  for (let u = 0; u < box.w; u += 2) for (let v = -half; v <= half; v += 2) { const g = grey(u, v); if (g < lo) lo = g; if (g > hi) hi = g; }
  if (hi - lo < 40) return [box];
  const threshold = (lo + hi) / 2;
  const cuts: [number, number][] = [];
  for (const u of inside) {
    // The white run around the gutter, searched a third of a line either side of it.
    let a = Math.round(u);
    const reach = Math.round(box.h * 0.35);
    let found = false;
    for (let d = 0; d <= reach && !found; d++) {
      for (const p of [a - d, a + d]) if (blank(p, threshold)) { a = p; found = true; break; }
    }
    if (!found) continue;
    let l = a;
    let r = a;
    while (l > 0 && blank(l - 1, threshold)) l--;
    while (r < box.w - 1 && blank(r + 1, threshold)) r++;
    if (r - l + 1 >= minWhite * box.h) cuts.push([l, r]);
  }
  if (cuts.length === 0) return [box];
  const pieces: RotatedBox[] = [];
  let start = 0;
  const piece = (from: number, to: number): void => {
    const mid = (from + to) / 2 - box.w / 2;
    if (to - from >= box.h * 0.8) pieces.push({ cx: box.cx + mid * c, cy: box.cy + mid * s, w: to - from, h: box.h, angle: box.angle });
  };
  // Each piece keeps a quarter of the line's height of the white beside it, DB's framing.
  for (const [l, r] of cuts.sort((p, q) => p[0] - q[0])) {
    const pad = Math.min(box.h * 0.25, (r - l) / 2);
    piece(start, l + pad);
    start = r + 1 - pad;
  }
  piece(start, box.w);
  return pieces.length > 0 ? pieces : [box];
}
