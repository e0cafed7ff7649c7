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
import type { Rgb } from './raster.ts';

/** Boxes tilted more than this are left alone: vertical text, diagonal stamps. */
const MAX_TILT = (10 * Math.PI) / 180;

export function splitAtGaps(image: Rgb, box: RotatedBox, gapFactor = 1.1): RotatedBox[] {
  if (Math.abs(box.angle) > MAX_TILT || box.w < 4 * box.h) return [box];
  const length = Math.floor(box.w);
  // The middle of the line only: ascenders of the line above and descenders below would bridge gaps.
  const half = box.h * 0.3;
  if (length < 8 || half < 1) return [box];
  const { data, width, height } = image;
  const c = Math.cos(box.angle);
  const s = Math.sin(box.angle);
  const grey = (u: number, v: number): number => {
    const x = Math.round(box.cx + (u - box.w / 2) * c - v * s);
    const y = Math.round(box.cy + (u - box.w / 2) * s + v * c);
    if (x < 0 || y < 0 || x >= width || y >= height) return 255;
    const i = (y * width + x) * 3;
    return (data[i]! + data[i + 1]! + data[i + 2]!) / 3;
  };
  const rows: number[] = [];
  for (let v = -half; v <= half; v += 1) rows.push(v);
  let lo = 255;
  let hi = 0;
  for (let k = 0; k < rows.length; k += 2) {
    for (let u = 0; u < length; u += 2) {
      const g = grey(u, rows[k]!);
      if (g < lo) lo = g;
      if (g > hi) hi = g;
    }
  }
  if (hi - lo < 40) return [box];
  const threshold = (lo + hi) / 2;
  const ink = new Uint8Array(length);
  for (let u = 0; u < length; u++) {
    for (const v of rows) {
      if (grey(u, v) < threshold) { ink[u] = 1; break; }
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
    const left = a - pad;
    const right = b + 1 + pad;
    const mid = (left + right) / 2 - box.w / 2;
    return { cx: box.cx + mid * c, cy: box.cy + mid * s, w: right - left, h: box.h, angle: box.angle };
  }).filter((b) => b.w >= b.h * 0.8);
}
