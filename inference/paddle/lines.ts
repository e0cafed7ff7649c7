/**
 * The page → upright text lines half of the paddle pipeline, shared by every engine that reads
 * lines itself: detection, a quarter turn when the lines run vertically, the direction
 * classifier's vote on upside-down pages (from a sample of lines when it is clear), and lines
 * joined across gutters cut apart.
 */
import type { OnnxSession } from '../runtime/ort.ts';
import { voteUpsideDown } from './classify.ts';
import { detectLines } from './detect.ts';
import type { RotatedBox } from './geometry.ts';
import { cutAtGutters, findGutters } from './gutters.ts';
import { inkProfile } from './ink.ts';
import { isSideways, rotateBox180, upsideDownShare } from './orientation.ts';
import type { Rgb } from './raster.ts';
import { rotateRgb } from './raster.ts';
import { deskewFrame, estimateSkew } from './skew.ts';
import { splitAtGaps } from './split.ts';
import type { StageTimes } from './stages.ts';
import { lap } from './stages.ts';

/** Lines read both ways when the classifier's vote is unclear. */
const VERIFY_LINES = 8;

export interface FindLinesOptions {
  /** Longer side of the detection input in pixels (multiple of 32). @default 960 */
  readonly maxSide?: number;
  /**
   * Lines the direction classifier looks at first (the longest); only when these do not agree
   * clearly is it asked about more (up to 64). 0 classifies every line.
   * @default 16
   */
  readonly sample?: number;
  /** Stage times to add to (detection's, then `rotate`, `cls`, `verify`, `split`). */
  readonly times?: StageTimes;
  /**
   * A second opinion when the classifier's vote is unclear (on small or faint type of a noisy
   * scan it reads about as many lines each way): given the longest lines, resolve to how much
   * better they read turned 180° than as they are (positive: turned). Engines with a
   * recogniser pass one that reads the lines both ways and compares its confidence.
   */
  readonly verify?: (image: Rgb, boxes: readonly RotatedBox[]) => Promise<number>;
  /** Vote shares between these two are unclear and asked of `verify`. @default [0.25, 0.8] */
  readonly unclear?: readonly [number, number];
  /** The image is known not to be upside down: no classifier vote (sideways is still checked). @default false */
  readonly upright?: boolean;
}

export interface UprightLine {
  /** In pixels of {@link UprightLines.upright}. */
  readonly box: RotatedBox;
  /**
   * Probability (0–1) the direction classifier gives this line for being upside down; 0 for
   * lines it was not asked about (the page's vote was clear from a sample).
   */
  readonly p180: number;
}

export interface UprightLines {
  /** The page turned so its text reads left to right. */
  readonly upright: Rgb;
  /** Clockwise turn applied to the page as given. */
  readonly rotation: 0 | 90 | 180 | 270;
  readonly lines: UprightLine[];
  /**
   * Skew of the upright page's text lines in radians (y down: lines rising to the right are
   * negative); lay lines out in the frame `deskewFrame(skew, …)` gives.
   */
  readonly skew: number;
  /** Column gutters: x positions in the deskewed frame, left to right (lines were cut there). */
  readonly gutters: number[];
}

/**
 * Find the text lines of a page and turn the page upright.
 *
 * @example
 * const { upright, rotation, lines } = await findUprightLines({ det, cls }, toRgb(page));
 */
export async function findUprightLines(
  sessions: { readonly det: OnnxSession; readonly cls: OnnxSession },
  given: Rgb,
  options: Readonly<FindLinesOptions> = {},
): Promise<UprightLines> {
  const { maxSide = 960, sample = 16, times, verify, unclear = [0.25, 0.8], upright: knownUpright = false } = options;
  const { det, cls } = sessions;
  let upright: Rgb = given;
  let rotation: 0 | 90 | 180 | 270 = 0;
  let lines = await detectLines(det, upright, { maxSide, times });
  if (isSideways(lines.map((l) => l.box))) {
    const t = performance.now();
    upright = rotateRgb(given, 90);
    rotation = 90;
    lap(times, 'rotate', t);
    lines = await detectLines(det, upright, { maxSide, times });
  }
  let t = performance.now();
  let p180 = knownUpright
    ? lines.map(() => 0)
    : await voteUpsideDown(
        cls,
        upright,
        lines.map((l) => l.box),
        sample,
      );
  t = lap(times, 'cls', t);
  const share = upsideDownShare(
    lines.map((l) => l.box),
    p180,
    p180.map((p) => !Number.isNaN(p)),
  );
  let flip = share > 0.6;
  if (verify !== undefined && share > unclear[0] && share < unclear[1]) {
    const longest = lines
      .map((l) => l.box)
      .filter((b) => b.w >= 2.5 * b.h)
      .sort((a, b) => b.w - a.w)
      .slice(0, VERIFY_LINES);
    if (longest.length > 0) flip = (await verify(upright, longest)) > 0;
    t = lap(times, 'verify', t);
  }
  if (flip) {
    const w = upright.width;
    const h = upright.height;
    upright = rotateRgb(upright, 180);
    rotation = rotation === 90 ? 270 : 180;
    lines = lines.map((l) => ({ ...l, box: rotateBox180(l.box, w, h) }));
    p180 = p180.map((p) => 1 - p);
    t = lap(times, 'rotate', t);
  }
  // Lines the classifier did not look at get 0: they are read the way the page reads.
  p180 = p180.map((p) => (Number.isNaN(p) ? 0 : p));
  // Lines DB joined across a column gutter or between table cells are cut apart on the image.
  const pieces: UprightLine[] = [];
  lines.forEach((line, i) => {
    for (const box of splitAtGaps(upright, line.box)) pieces.push({ box, p180: p180[i] ?? 0 });
  });
  const skew = estimateSkew(lines.map((l) => l.box));
  const frame = deskewFrame(skew, upright.width, upright.height);
  const profiled = pieces.map((p) => ({ ...p, bounds: frame.bounds(p.box), ink: inkProfile(upright, p.box) }));
  const gutters = findGutters(profiled);
  const cut = gutters.length === 0 ? pieces : profiled.flatMap((p) => cutAtGutters(p.box, p.ink, p.bounds[0], gutters).map((box) => ({ box, p180: p.p180 })));
  lap(times, 'split', t);
  return { upright, rotation, lines: cut, skew, gutters };
}
