/**
 * Cut a (possibly skewed) text line out of the page and scale it to the recogniser's height in
 * one bilinear pass: the rotated box is sampled along its own axes, which also deskews it.
 */
import type { RotatedBox } from './geometry.ts';
import type { Rgb } from './raster.ts';

/** Width a line gets when scaled to `height`, keeping its aspect ratio. */
export function scaledWidth(box: RotatedBox, height: number): number {
  return Math.max(1, Math.ceil((height * box.w) / Math.max(1, box.h)));
}

/**
 * Write the line into `out` (a CHW batch slot of `height × stride`, BGR, normalised to [-1, 1])
 * using the first `width` columns; the rest of the slot stays as it is (zero padding).
 * `flip` reads the line upside down (a 180° line). This is {@link walkBox} with {@link sample}
 * inlined for all three channels at once: it runs for every pixel of every line, and the
 * callback form cost several times more than the bilinear arithmetic itself.
 */
export function cropInto(out: Float32Array, offset: number, stride: number, height: number, width: number, image: Rgb, box: RotatedBox, flip: boolean): void {
  const plane = height * stride;
  const { data, width: iw, height: ih } = image;
  const c = Math.cos(box.angle) * (flip ? -1 : 1);
  const s = Math.sin(box.angle) * (flip ? -1 : 1);
  const su = box.w / width;
  const sv = box.h / height;
  const du0 = 0.5 * su - box.w / 2;
  // Page position moves by a fixed step per output column (the walk is linear along the box).
  const stepX = su * c;
  const stepY = su * s;
  for (let v = 0; v < height; v++) {
    const dv = (v + 0.5) * sv - box.h / 2;
    let x = box.cx + du0 * c - dv * s - 0.5;
    let y = box.cy + du0 * s + dv * c - 0.5;
    let o = offset + v * stride;
    for (let u = 0; u < width; u++, o++, x += stepX, y += stepY) {
      let r = 255;
      let g = 255;
      let b = 255;
      // Outside the image reads white, as in `sample`: page margins are paper.
      if (x >= -0.5 && y >= -0.5 && x <= iw - 0.5 && y <= ih - 0.5) {
        const fx = x < 0 ? 0 : Math.min(x, iw - 1);
        const fy = y < 0 ? 0 : Math.min(y, ih - 1);
        const x0 = fx | 0;
        const y0 = fy | 0;
        const ax = fx - x0;
        const ay = fy - y0;
        const i00 = (y0 * iw + x0) * 3;
        const i10 = x0 + 1 < iw ? i00 + 3 : i00;
        const i01 = y0 + 1 < ih ? i00 + iw * 3 : i00;
        const i11 = i01 + (i10 - i00);
        const w00 = (1 - ax) * (1 - ay);
        const w10 = ax * (1 - ay);
        const w01 = (1 - ax) * ay;
        const w11 = ax * ay;
        r = data[i00]! * w00 + data[i10]! * w10 + data[i01]! * w01 + data[i11]! * w11;
        g = data[i00 + 1]! * w00 + data[i10 + 1]! * w10 + data[i01 + 1]! * w01 + data[i11 + 1]! * w11;
        b = data[i00 + 2]! * w00 + data[i10 + 2]! * w10 + data[i01 + 2]! * w01 + data[i11 + 2]! * w11;
      }
      out[o] = b / 127.5 - 1;
      out[o + plane] = g / 127.5 - 1;
      out[o + 2 * plane] = r / 127.5 - 1;
    }
  }
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
