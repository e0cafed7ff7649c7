/**
 * Where a line has ink along its length: the middle band of a (possibly tilted) line box walked
 * along its own axis, one flag per pixel of its length. Gap splitting and gutter finding read
 * whitespace from it; the middle band only, because ascenders of the line above and descenders
 * of the line below would bridge gaps.
 */
import type { RotatedBox } from './geometry.ts';
import type { Rgb } from './raster.ts';

/**
 * One flag per pixel along the box (1: ink in the middle band there), or undefined when the line
 * has too little contrast to tell ink from paper.
 *
 * @example
 * const ink = inkProfile(upright, line.box);
 */
export function inkProfile(image: Rgb, box: RotatedBox, band = 0.3): Uint8Array | undefined {
  const length = Math.floor(box.w);
  const half = box.h * band;
  if (length < 8 || half < 1) return undefined;
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
  if (hi - lo < 40) return undefined;
  // Ink is what is darker than halfway to the paper: scanner noise keeps paper well above it.
  const threshold = (lo + hi) / 2;
  const ink = new Uint8Array(length);
  for (let u = 0; u < length; u++) {
    for (const v of rows) {
      if (grey(u, v) < threshold) {
        ink[u] = 1;
        break;
      }
    }
  }
  return ink;
}

/** The white run of `ink` around `u` (searched `reach` either way), as [first, last], or undefined. */
export function whiteRunNear(ink: Uint8Array, u: number, reach: number): [number, number] | undefined {
  let a = -1;
  const at = Math.round(u);
  for (let d = 0; d <= reach && a < 0; d++) {
    for (const p of [at - d, at + d])
      if (p >= 0 && p < ink.length && ink[p] === 0) {
        a = p;
        break;
      }
  }
  if (a < 0) return undefined;
  let l = a;
  let r = a;
  while (l > 0 && ink[l - 1] === 0) l--;
  while (r < ink.length - 1 && ink[r + 1] === 0) r++;
  return [l, r];
}
