/**
 * The page → upright text lines half of the paddle pipeline, shared by every engine that reads
 * lines itself: detection, a quarter turn when the lines run vertically, the direction
 * classifier's vote on upside-down pages, and lines joined across gutters cut apart.
 */
import type { OnnxSession } from '../runtime/ort.ts';
import { classifyLines } from './classify.ts';
import { detectLines } from './detect.ts';
import type { RotatedBox } from './geometry.ts';
import type { BoxMapper } from './markdown.ts';
import { isSideways, rotateBox180, unrotateBounds, upsideDownShare } from './orientation.ts';
import { rotateRgb } from './raster.ts';
import type { Rgb } from './raster.ts';
import { splitAtGaps } from './split.ts';

export interface FindLinesOptions {
  /** Longer side of the detection input in pixels (multiple of 32). @default 960 */
  readonly maxSide?: number;
}

export interface UprightLine {
  /** In pixels of {@link UprightLines.upright}. */
  readonly box: RotatedBox;
  /** Probability (0–1) the direction classifier gives this line for being upside down. */
  readonly p180: number;
}

export interface UprightLines {
  /** The page turned so its text reads left to right. */
  readonly upright: Rgb;
  /** Clockwise turn applied to the page as given. */
  readonly rotation: 0 | 90 | 180 | 270;
  readonly lines: UprightLine[];
}

/**
 * Find the text lines of a page and turn the page upright.
 *
 * @example
 * const { upright, rotation, lines } = await findUprightLines({ det, cls }, toRgb(page));
 */
export async function findUprightLines(sessions: { readonly det: OnnxSession; readonly cls: OnnxSession }, given: Rgb, options: Readonly<FindLinesOptions> = {}): Promise<UprightLines> {
  const { maxSide = 960 } = options;
  const { det, cls } = sessions;
  let upright: Rgb = given;
  let rotation: 0 | 90 | 180 | 270 = 0;
  let lines = await detectLines(det, upright, { maxSide });
  if (isSideways(lines.map((l) => l.box))) {
    upright = rotateRgb(given, 90);
    rotation = 90;
    lines = await detectLines(det, upright, { maxSide });
  }
  let p180 = await classifyLines(cls, upright, lines.map((l) => l.box), 32);
  if (upsideDownShare(lines.map((l) => l.box), p180) > 0.6) {
    const w = upright.width;
    const h = upright.height;
    upright = rotateRgb(upright, 180);
    rotation = rotation === 90 ? 270 : 180;
    lines = lines.map((l) => ({ ...l, box: rotateBox180(l.box, w, h) }));
    p180 = p180.map((p) => 1 - p);
  }
  // Lines DB joined across a column gutter or between table cells are cut apart on the image.
  const pieces: UprightLine[] = [];
  lines.forEach((line, i) => {
    for (const box of splitAtGaps(upright, line.box)) pieces.push({ box, p180: p180[i] ?? 0 });
  });
  return { upright, rotation, lines: pieces };
}

/**
 * Boxes of the upright page → the 0–999 grounding grid of the page as it was given.
 *
 * @example
 * const markdown = blocksToMarkdown(blocks, pageGrid(rotation, given.width, given.height));
 */
export function pageGrid(rotation: 0 | 90 | 180 | 270, width: number, height: number): BoxMapper {
  return (b) => {
    const [x1, y1, x2, y2] = unrotateBounds(b, rotation, width, height);
    const gx = (v: number): number => Math.round(Math.min(999, Math.max(0, (v / width) * 999)));
    const gy = (v: number): number => Math.round(Math.min(999, Math.max(0, (v / height) * 999)));
    return [gx(x1), gy(y1), gx(x2), gy(y2)];
  };
}
