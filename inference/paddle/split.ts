/**
 * Split detected lines at wide white gaps. At detection scale the gutter between two text
 * columns (or two table cells) can be narrow enough for DB to join the lines on either side
 * into one box, and no layout step can undo that once the line is read as one string. So,
 * before recognition, each near-horizontal box is checked on the full-resolution image: a run
 * of ink-free columns wider than the line is tall (word spaces are a third of that) splits it.
 */
import type { RotatedBox } from './geometry.ts';
import type { Rgb } from './raster.ts';

/** Boxes tilted more than this are left alone (their columns are not image columns). */
const MAX_TILT = (4 * Math.PI) / 180;

export function splitAtGaps(image: Rgb, box: RotatedBox, gapFactor = 1.1): RotatedBox[] {
  if (Math.abs(box.angle) > MAX_TILT || box.w < 4 * box.h) return [box];
  const x0 = Math.max(0, Math.floor(box.cx - box.w / 2));
  const x1 = Math.min(image.width, Math.ceil(box.cx + box.w / 2));
  // The middle of the line only: ascenders of the line above and descenders below would bridge gaps.
  const y0 = Math.max(0, Math.floor(box.cy - box.h * 0.3));
  const y1 = Math.min(image.height, Math.ceil(box.cy + box.h * 0.3));
  if (x1 - x0 < 8 || y1 - y0 < 2) return [box];
  const { data, width } = image;
  let lo = 255;
  let hi = 0;
  const grey = (x: number, y: number): number => {
    const i = (y * width + x) * 3;
    return (data[i]! + data[i + 1]! + data[i + 2]!) / 3;
  };
  for (let y = y0; y < y1; y += 2) {
    for (let x = x0; x < x1; x += 2) {
      const g = grey(x, y);
      if (g < lo) lo = g;
      if (g > hi) hi = g;
    }
  }
  if (hi - lo < 40) return [box];
  const threshold = (lo + hi) / 2;
  const ink = new Uint8Array(x1 - x0);
  for (let x = x0; x < x1; x++) {
    for (let y = y0; y < y1; y++) {
      if (grey(x, y) < threshold) { ink[x - x0] = 1; break; }
    }
  }
  const minGap = gapFactor * box.h;
  const segments: [number, number][] = [];
  let start = -1;
  let lastInk = -1;
  for (let i = 0; i < ink.length; i++) {
    if (ink[i] !== 1) continue;
    if (start < 0) start = i;
    else if (i - lastInk > minGap) { segments.push([start, lastInk]); start = i; }
    lastInk = i;
  }
  if (start >= 0) segments.push([start, lastInk]);
  if (segments.length <= 1) return [box];
  // Keep the DB margin around each piece so the recogniser sees the same framing it trained on.
  const pad = box.h * 0.25;
  return segments.map(([a, b]) => {
    const left = x0 + a - pad;
    const right = x0 + b + 1 + pad;
    return { cx: (left + right) / 2, cy: box.cy, w: right - left, h: box.h, angle: 0 };
  }).filter((b) => b.w >= b.h * 0.8);
}
