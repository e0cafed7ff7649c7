/**
 * A region of a rendered page, cut out as its own image. Boxes are in page points (the text
 * layer's frame); the rendered page maps them by its own scale, so any DPI works.
 */
import type { PageImage } from '../../inference/engine.ts';

type Box = readonly [number, number, number, number];

/**
 * @param pad Points added on every side (clipped to the page), so glyphs touching the box stay whole.
 * @example
 * cropRegion(page, [72, 40, 540, 110], 612, 792, 4) // the banner, 4 pt of paper around it
 */
export function cropRegion(page: PageImage, box: Box, pageWidth: number, pageHeight: number, pad = 0): PageImage & { readonly box: Box } {
  const sx = page.width / pageWidth;
  const sy = page.height / pageHeight;
  const x0 = Math.max(0, Math.floor((box[0] - pad) * sx));
  const y0 = Math.max(0, Math.floor((box[1] - pad) * sy));
  const x1 = Math.min(page.width, Math.max(x0 + 1, Math.ceil((box[2] + pad) * sx)));
  const y1 = Math.min(page.height, Math.max(y0 + 1, Math.ceil((box[3] + pad) * sy)));
  const { channels } = page;
  const width = x1 - x0;
  const height = y1 - y0;
  const data = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y++) {
    const from = ((y0 + y) * page.width + x0) * channels;
    data.set(page.data.subarray(from, from + width * channels), y * width * channels);
  }
  // The box actually cut, in points: tags read on the crop map back through it.
  return { ...page, data, width, height, box: [x0 / sx, y0 / sy, x1 / sx, y1 / sy] };
}
