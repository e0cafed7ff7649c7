/**
 * Column gutters from whitespace. A gutter is an x position (in the deskewed frame) where many
 * body lines end just left of it, many begin just right of it, and no line has ink across it.
 * DB joins lines across a narrow gutter, often most of them (a gutter of half a line height at
 * detection scale is a few pixels), so a line that runs across counts as ending and beginning
 * there when its own ink profile is white at the gutter; only inked crossings (a full-width
 * title, a line of one column) count against it. Lines that run across are then cut there
 * before recognition.
 */
import type { RotatedBox } from './geometry.ts';
import { whiteRunNear } from './ink.ts';
import { median } from './numbers.ts';

type Bounds = readonly [number, number, number, number];

/** A detected line for gutter finding: its bounds in the deskewed frame and its ink profile. */
export interface GutterLine {
  readonly bounds: Bounds;
  /** From `inkProfile`, starting at `bounds[0]`; without it a crossing line counts as inked. */
  readonly ink?: Uint8Array;
}

export interface GutterOptions {
  /** Fewest lines that must end left of and begin right of a gutter. @default 4 */
  readonly minLines?: number;
  /** Most lines with ink across a gutter, as a share of the lines that end and begin at it. @default 0.25 */
  readonly maxCrossing?: number;
  /** Least white across a gutter, in line heights (word spaces are about a third). @default 0.45 */
  readonly minWhite?: number;
  /** Least median length of the lines either side, in line heights (a dozen characters). @default 5 */
  readonly minColumn?: number;
}

/**
 * Gutter x positions of a page, left to right.
 *
 * @example
 * const gutters = findGutters(lines.map((l) => ({ bounds: frame.bounds(l.box), ink: inkProfile(upright, l.box) })));
 */
export function findGutters(lines: readonly GutterLine[], options: Readonly<GutterOptions> = {}): number[] {
  const { minLines = 4, maxCrossing = 0.25, minWhite = 0.45, minColumn = 5 } = options;
  if (lines.length < 2 * minLines) return [];
  const h = median(lines.map((l) => l.bounds[3] - l.bounds[1]));
  if (!(h > 0)) return [];
  // Body lines only: headings and big type have other margins, specks have none.
  const body = lines.filter(({ bounds: b }) => b[3] - b[1] < 1.6 * h && b[3] - b[1] > 0.6 * h && b[2] - b[0] > 2 * h);
  if (body.length < 2 * minLines) return [];
  const left = Math.min(...body.map((l) => l.bounds[0]));
  const right = Math.max(...body.map((l) => l.bounds[2]));
  const step = Math.max(1, h / 4);
  // Lines start flush right of a gutter, but end ragged left of it (unjustified text, index
  // entries): the window for line ends is wide, for starts narrow.
  const endWindow = 8 * h;
  const startWindow = 1.5 * h;
  const median2 = (xs: number[]): number => median(xs);
  const candidates: { x: number; strength: number }[] = [];
  for (let x = left + 2 * h; x < right - 2 * h; x += step) {
    const ends: number[] = [];
    const starts: number[] = [];
    let crossing = 0;
    for (const {
      bounds: [x1, , x2],
      ink,
    } of body) {
      if (x1 < x - h && x2 > x + h) {
        const run = ink === undefined ? undefined : whiteRunNear(ink, x - x1, 0.25 * h);
        if (run !== undefined && run[1] - run[0] + 1 >= minWhite * h) {
          ends.push(x - x1);
          starts.push(x2 - x);
        } else crossing++;
      } else if (x2 <= x + 0.25 * h && x2 > x - endWindow) {
        ends.push(x2 - x1);
      } else if (x1 >= x - 0.25 * h && x1 < x + startWindow) {
        starts.push(x2 - x1);
      }
    }
    const strength = Math.min(ends.length, starts.length);
    // Text columns, not table columns: the lines either side are lines of words (a table's
    // numbers and short cells line up as well, and are read row by row).
    const wordy = strength > 0 && median2(ends) >= minColumn * h && median2(starts) >= minColumn * h;
    if (strength >= minLines && wordy && crossing <= maxCrossing * strength) candidates.push({ x, strength: strength - crossing });
  }
  // Neighbouring candidates are one gutter: keep the middle of the strongest of each run.
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
 * Cut a line that runs across gutters where its ink profile (`ink`, starting at `x1` in the
 * deskewed frame) is white for at least `minWhite` line heights around the gutter.
 */
export function cutAtGutters(box: RotatedBox, ink: Uint8Array | undefined, x1: number, gutters: readonly number[], minWhite = 0.45): RotatedBox[] {
  if (ink === undefined) return [box];
  const inside = gutters.map((g) => g - x1).filter((u) => u > box.h && u < box.w - box.h);
  if (inside.length === 0) return [box];
  const cuts: [number, number][] = [];
  for (const u of inside) {
    const run = whiteRunNear(ink, u, 0.35 * box.h);
    if (run !== undefined && run[1] - run[0] + 1 >= minWhite * box.h) cuts.push(run);
  }
  if (cuts.length === 0) return [box];
  const c = Math.cos(box.angle);
  const s = Math.sin(box.angle);
  const pieces: RotatedBox[] = [];
  const piece = (from: number, to: number): void => {
    const mid = (from + to) / 2 - box.w / 2;
    if (to - from >= box.h * 0.8) pieces.push({ cx: box.cx + mid * c, cy: box.cy + mid * s, w: to - from, h: box.h, angle: box.angle });
  };
  // Each piece keeps a quarter of the line's height of the white beside it, DB's framing.
  let start = 0;
  for (const [l, r] of cuts.sort((p, q) => p[0] - q[0])) {
    const pad = Math.min(box.h * 0.25, (r - l) / 2);
    piece(start, l + pad);
    start = r + 1 - pad;
  }
  piece(start, box.w);
  return pieces.length > 0 ? pieces : [box];
}
