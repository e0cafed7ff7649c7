/**
 * Split detected lines at wide white gaps. At detection scale the gutter between two text
 * columns (or two table cells) can be narrow enough for DB to join the lines on either side
 * into one box, and no layout step can undo that once the line is read as one string. So,
 * before recognition, each near-horizontal box is checked on the full-resolution image: a run
 * of ink-free columns wider than the line is tall (word spaces are a third of that) splits it.
 * The box is walked along its own axes, so a line on a skewed page is searched along its slope
 * (an axis-aligned band loses the ends of a long tilted line and finds gaps that are not there).
 */
import type { RotatedBox } from './geometry.ts';
import { inkProfile } from './ink.ts';
import type { Rgb } from './raster.ts';

/** Boxes tilted more than this are left alone: vertical text, diagonal stamps. */
const MAX_TILT = (10 * Math.PI) / 180;

export function splitAtGaps(image: Rgb, box: RotatedBox, gapFactor = 1.1): RotatedBox[] {
  if (Math.abs(box.angle) > MAX_TILT || box.w < 4 * box.h) return [box];
  const ink = inkProfile(image, box);
  if (ink === undefined) return [box];
  const c = Math.cos(box.angle);
  const s = Math.sin(box.angle);
  const minGap = gapFactor * box.h;
  const segments: [number, number][] = [];
  let start = -1;
  let lastInk = -1;
  for (let i = 0; i < ink.length; i++) {
    if (ink[i] !== 1) continue;
    if (start < 0) start = i;
    else if (i - lastInk > minGap) {
      segments.push([start, lastInk]);
      start = i;
    }
    lastInk = i;
  }
  if (start >= 0) segments.push([start, lastInk]);
  if (segments.length <= 1) return [box];
  // Keep the DB margin around each piece so the recogniser sees the same framing it trained on.
  const pad = box.h * 0.25;
  return segments
    .map(([a, b]) => {
      const left = a - pad;
      const right = b + 1 + pad;
      const mid = (left + right) / 2 - box.w / 2;
      return { cx: box.cx + mid * c, cy: box.cy + mid * s, w: right - left, h: box.h, angle: box.angle };
    })
    .filter((b) => b.w >= b.h * 0.8);
}
