/**
 * A formula's box grown to the ink around it: a line recogniser reads no line for a fraction bar, a
 * large operator or its limits, so the union of the lines it read can cut them off. Each side moves
 * out while ink lies within `gap` of it, never past `room` (the rows above and below, the column,
 * an equation number).
 */
import type { PageImage } from '../../inference/engine.ts';

type Box = [number, number, number, number];

/**
 * Grey level under which a pixel is ink. Scanned paper sits near 230–255 with the scanner's noise,
 * print near 0–80 after blur; half-way keeps specks of noise and JPEG ringing out.
 */
const INK = 128;
/** A row or column of the strip holds ink when this many of its pixels are dark (a lone speck is noise). */
const MIN_DARK = 2;

/**
 * @param box Pixels of `image`, `[x0, y0, x1, y1)`.
 * @example
 * growToInk(page, [400, 300, 620, 340], [200, 270, 1500, 380], 12) // [392, 288, 624, 352]
 */
export function growToInk(image: PageImage, box: readonly [number, number, number, number], room: readonly [number, number, number, number], gap: number): Box {
  const { data, width, channels } = image;
  const dark = (x: number, y: number): boolean => {
    const i = (y * width + x) * channels;
    const v = channels < 3 ? data[i]! : (data[i]! * 299 + data[i + 1]! * 587 + data[i + 2]! * 114) / 1000;
    return v < INK;
  };
  const rowInk = (y: number, x0: number, x1: number): boolean => {
    let n = 0;
    for (let x = x0; x < x1; x++) if (dark(x, y) && ++n >= MIN_DARK) return true;
    return false;
  };
  const colInk = (x: number, y0: number, y1: number): boolean => {
    let n = 0;
    for (let y = y0; y < y1; y++) if (dark(x, y) && ++n >= MIN_DARK) return true;
    return false;
  };
  const out: Box = [Math.max(room[0], box[0]), Math.max(room[1], box[1]), Math.min(room[2], box[2]), Math.min(room[3], box[3])];
  if (out[2] <= out[0] || out[3] <= out[1]) return [box[0], box[1], box[2], box[3]];
  for (let changed = true, rounds = 0; changed && rounds < 8; rounds++) {
    changed = false;
    for (let y = Math.max(room[1], out[1] - gap); y < out[1]; y++)
      if (rowInk(y, out[0], out[2])) {
        out[1] = y;
        changed = true;
        break;
      }
    for (let y = Math.min(room[3] - 1, out[3] + gap); y >= out[3]; y--)
      if (rowInk(y, out[0], out[2])) {
        out[3] = y + 1;
        changed = true;
        break;
      }
    for (let x = Math.max(room[0], out[0] - gap); x < out[0]; x++)
      if (colInk(x, out[1], out[3])) {
        out[0] = x;
        changed = true;
        break;
      }
    for (let x = Math.min(room[2] - 1, out[2] + gap); x >= out[2]; x--)
      if (colInk(x, out[1], out[3])) {
        out[2] = x + 1;
        changed = true;
        break;
      }
  }
  return out;
}
