/**
 * Page skew. A page fed a degree or two askew has every text line tilted alike; laid out by
 * their axis-aligned bounds, neighbouring lines overlap vertically and columns lean into their
 * gutters, so rows merge and reading order flips. The skew is read off the detected lines (the
 * length-weighted median angle of the long ones: DB fits each line's own rotated rectangle),
 * and layout runs in the deskewed frame: each box's centre turned back about the page centre,
 * its extent taken along its own axes. Recognition needs nothing: crops already sample each
 * line along its own axes.
 */
import type { RotatedBox } from './geometry.ts';
import { boxBounds } from './geometry.ts';

/** Lines long enough for their angle to be measured well (a word's box angle is noise). */
function measurable(box: RotatedBox): boolean {
  return box.w >= 5 * box.h;
}

/**
 * The page's skew in radians (the text axis angle, y down: a line rising to the right is
 * negative), or 0 when fewer than two long lines say so. Angles beyond `maxSkew` are not skew
 * but vertical or diagonal text, and do not vote.
 *
 * @example
 * const skew = estimateSkew(lines.map((l) => l.box));
 */
export function estimateSkew(boxes: readonly RotatedBox[], maxSkew = (15 * Math.PI) / 180): number {
  const votes = boxes.filter((b) => measurable(b) && Math.abs(b.angle) <= maxSkew).map((b) => ({ angle: b.angle, weight: b.w }));
  if (votes.length < 2) return 0;
  votes.sort((a, b) => a.angle - b.angle);
  const total = votes.reduce((s, v) => s + v.weight, 0);
  let acc = 0;
  for (const v of votes) {
    acc += v.weight;
    if (acc >= total / 2) return v.angle;
  }
  return votes[votes.length - 1]!.angle;
}

/** A turn by `-skew` about the centre of a `width × height` page (`core/ocr-frame.ts` turns boxes back). */
export interface Deskew {
  readonly skew: number;
  /** Axis-aligned bounds of a box in the deskewed frame. */
  bounds(box: RotatedBox): [x1: number, y1: number, x2: number, y2: number];
}

/**
 * The deskewed frame of a page.
 *
 * @example
 * const frame = deskewFrame(skew, upright.width, upright.height);
 * const [x1, y1, x2, y2] = frame.bounds(line.box);
 */
export function deskewFrame(skew: number, width: number, height: number): Deskew {
  const ox = width / 2;
  const oy = height / 2;
  const c = Math.cos(skew);
  const s = Math.sin(skew);
  // Undo the skew: turn by -skew.
  const toFlat = (x: number, y: number): [number, number] => [ox + (x - ox) * c + (y - oy) * s, oy - (x - ox) * s + (y - oy) * c];
  return {
    skew,
    bounds(box) {
      const [cx, cy] = toFlat(box.cx, box.cy);
      return boxBounds({ ...box, cx, cy, angle: box.angle - skew });
    },
  };
}
