/**
 * An OCR page given turned (a page fed into the scanner sideways or upside down) is read upright by
 * the engine, but its boxes are on the grid of the image as given. Formulas are found and read
 * upright: boxes go between the two grids, and a crop is turned like the page.
 */
import type { PageImage } from '../../inference/engine.ts';

type Box = readonly [number, number, number, number];
/** Clockwise turn that makes the given image upright (the engine's `rotation` figure). */
export type Turn = 0 | 90 | 180 | 270;

/**
 * A box on the given image's 0–999 grid → the upright image's grid.
 *
 * @example
 * toUpright([100, 200, 300, 250], 180) // [699, 749, 899, 799]
 */
export function toUpright(b: Box, turn: Turn): Box {
  // Turned 90° clockwise: upright (u, v) = (H − y, x); 270°: (y, W − x).
  if (turn === 90) return [999 - b[3], b[0], 999 - b[1], b[2]];
  if (turn === 180) return [999 - b[2], 999 - b[3], 999 - b[0], 999 - b[1]];
  if (turn === 270) return [b[1], 999 - b[2], b[3], 999 - b[0]];
  return b;
}

/** The inverse of {@link toUpright}. */
export function fromUpright(b: Box, turn: Turn): Box {
  if (turn === 90) return [b[1], 999 - b[2], b[3], 999 - b[0]];
  if (turn === 180) return toUpright(b, 180);
  if (turn === 270) return [999 - b[3], b[0], 999 - b[1], b[2]];
  return b;
}

/** A one-channel crop turned clockwise by `turn`. */
export function turnGrey(image: PageImage, turn: Turn): PageImage {
  if (turn === 0) return image;
  const { data, width: w, height: h } = image;
  const width = turn === 180 ? w : h;
  const height = turn === 180 ? h : w;
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const [u, v] = turn === 90 ? [h - 1 - y, x] : turn === 180 ? [w - 1 - x, h - 1 - y] : [y, w - 1 - x];
      out[v * width + u] = data[y * w + x]!;
    }
  return { ...image, data: out, width, height };
}
