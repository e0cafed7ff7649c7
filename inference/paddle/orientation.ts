/**
 * Page-level rotation. Lines of a page scanned at 90° or 270° come out of detection as tall
 * boxes; the direction classifier only tells upright from upside down. So: if most long lines
 * run vertically, turn the page a quarter clockwise and detect again; then let the classifier
 * vote, weighted by line length, whether the page is upside down.
 */
import type { RotatedBox } from './geometry.ts';

/** Lines long enough for their direction to mean something (a single letter does not). */
function reliable(box: RotatedBox): boolean {
  return box.w >= 2.5 * box.h;
}

/** True when most reliable lines run vertically. */
export function isSideways(boxes: readonly RotatedBox[]): boolean {
  let vertical = 0;
  let total = 0;
  for (const b of boxes) {
    if (!reliable(b)) continue;
    total += b.w;
    if (Math.abs(Math.sin(b.angle)) > Math.SQRT1_2) vertical += b.w;
  }
  return total > 0 && vertical > 0.6 * total;
}

/**
 * Share (0–1, weighted by line length) of lines the classifier reads as upside down, over the
 * lines `counted` says (all by default).
 */
export function upsideDownShare(boxes: readonly RotatedBox[], p180: readonly number[], counted?: readonly boolean[]): number {
  let flipped = 0;
  let total = 0;
  boxes.forEach((b, i) => {
    if (counted !== undefined && counted[i] !== true) return;
    const weight = reliable(b) ? b.w : b.w * 0.25;
    total += weight;
    if ((p180[i] ?? 0) > 0.5) flipped += weight;
  });
  return total > 0 ? flipped / total : 0;
}

/** A box after turning its image 180°. */
export function rotateBox180(box: RotatedBox, width: number, height: number): RotatedBox {
  return { ...box, cx: width - box.cx, cy: height - box.cy };
}
