/**
 * Line boxes no taller than their line pitch allows. DB grows every text kernel by a margin that
 * depends on the kernel, not on the leading, so in small type set tight (captions, footnotes)
 * a line's box reaches well into the lines above and below, and the recogniser, given their
 * ascenders and descenders, drops and mixes letters. A box is capped at `ratio` times the
 * distance to its nearest neighbour line above or below (one that overlaps it along its length):
 * a little more than the ink of a line with ordinary leading needs (DB gives body text about 1.3).
 */
import type { RotatedBox } from './geometry.ts';

/**
 * The boxes, each no taller than `ratio` × its line pitch.
 *
 * @example
 * const capped = capToPitch(lines.map((l) => l.box));
 */
export function capToPitch(boxes: readonly RotatedBox[], ratio = 1.1): RotatedBox[] {
  return boxes.map((box, i) => {
    const c = Math.cos(box.angle);
    const s = Math.sin(box.angle);
    let pitch = Infinity;
    boxes.forEach((other, j) => {
      if (j === i || Math.abs(other.angle - box.angle) > 0.1) return;
      const dx = other.cx - box.cx;
      const dy = other.cy - box.cy;
      // Offsets along the line (u) and across it (v), in the box's own axes.
      const u = dx * c + dy * s;
      const v = -dx * s + dy * c;
      const overlap = Math.min(box.w / 2, u + other.w / 2) - Math.max(-box.w / 2, u - other.w / 2);
      // A neighbour line: mostly beside this one along its length, and a similar height.
      if (overlap < 0.5 * Math.min(box.w, other.w) || other.h > 1.5 * box.h || box.h > 1.5 * other.h) return;
      if (Math.abs(v) > 0.2 * box.h && Math.abs(v) < pitch) pitch = Math.abs(v);
    });
    return Number.isFinite(pitch) && box.h > ratio * pitch ? { ...box, h: ratio * pitch } : box;
  });
}
