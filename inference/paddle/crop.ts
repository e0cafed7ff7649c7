/**
 * Cut a (possibly skewed) text line out of the page and scale it to the recogniser's height in
 * one bilinear pass: the rotated box is sampled along its own axes, which also deskews it.
 */
import type { RotatedBox } from './geometry.ts';
import { sample } from './raster.ts';
import type { Rgb } from './raster.ts';

/** Width a line gets when scaled to `height`, keeping its aspect ratio. */
export function scaledWidth(box: RotatedBox, height: number): number {
  return Math.max(1, Math.ceil((height * box.w) / Math.max(1, box.h)));
}

/**
 * Write the line into `out` (a CHW batch slot of `height × stride`, BGR, normalised to [-1, 1])
 * using the first `width` columns; the rest of the slot stays as it is (zero padding).
 * `flip` reads the line upside down (a 180° line).
 */
export function cropInto(out: Float32Array, offset: number, stride: number, height: number, width: number, image: Rgb, box: RotatedBox, flip: boolean): void {
  const plane = height * stride;
  walkBox(box, flip, width, height, (u, v, x, y) => {
    const o = offset + v * stride + u;
    out[o] = sample(image, x, y, 2) / 127.5 - 1;
    out[o + plane] = sample(image, x, y, 1) / 127.5 - 1;
    out[o + 2 * plane] = sample(image, x, y, 0) / 127.5 - 1;
  });
}

/**
 * Visit a `width × height` grid laid along the rotated box's own axes: `(u, v)` is the output
 * pixel, `(x, y)` the page position to sample there. `flip` walks it upside down.
 */
export function walkBox(box: RotatedBox, flip: boolean, width: number, height: number, visit: (u: number, v: number, x: number, y: number) => void): void {
  const c = Math.cos(box.angle) * (flip ? -1 : 1);
  const s = Math.sin(box.angle) * (flip ? -1 : 1);
  const su = box.w / width;
  const sv = box.h / height;
  for (let v = 0; v < height; v++) {
    const dv = (v + 0.5) * sv - box.h / 2;
    for (let u = 0; u < width; u++) {
      const du = (u + 0.5) * su - box.w / 2;
      visit(u, v, box.cx + du * c - dv * s - 0.5, box.cy + du * s + dv * c - 0.5);
    }
  }
}
