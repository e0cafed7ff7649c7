/**
 * Which raster images of a text-layer page are worth reading from their pixels: words drawn as
 * images (a letterhead, a banner, a logo, a chart's labels) are missing from the text layer.
 * Small images (bullets, rules drawn as bitmaps), images under most of the page (a scan or a
 * background, which the router sends to OCR whole) and images under real text are left out.
 */
import type { Fragment, TextLayerRegion } from './types.ts';

type Box = readonly [number, number, number, number];

/** Smallest image worth reading, in points: a line of 6 pt type is about this tall. */
const MIN_HEIGHT = 8;
const MIN_WIDTH = 24;
/** Images under more of the page than this are the page itself (a scan, a background). */
const MAX_SHARE = 0.6;
/**
 * Text-layer characters over an image beyond which it is a background under real text (a shaded
 * box, a page-wide strip): its own pixels are not read.
 */
const MAX_OVERLAID = 12;
/** Images read per page, at most (the largest). */
const MAX_REGIONS = 6;

/**
 * @example
 * imageRegions([[72, 40, 540, 110]], fragments, 612, 792) // [{ kind: 'image', box: [72, 40, 540, 110], overlaid: '' }]
 */
export function imageRegions(boxes: readonly Box[], fragments: readonly Fragment[], width: number, height: number): (TextLayerRegion & { kind: 'image' })[] {
  const out: (TextLayerRegion & { kind: 'image' })[] = [];
  for (const raw of boxes) {
    const box: Box = [Math.max(0, raw[0]), Math.max(0, raw[1]), Math.min(width, raw[2]), Math.min(height, raw[3])];
    const w = box[2] - box[0];
    const h = box[3] - box[1];
    if (w < MIN_WIDTH || h < MIN_HEIGHT || (w * h) / (width * height) > MAX_SHARE) continue;
    // The same image drawn twice (a shadow, a tiled strip) is read once.
    if (out.some((r) => overlap(r.box, box) > 0.8 * Math.min(w * h, area(r.box)))) continue;
    const overlaid = fragments
      .filter((f) => inside(box, (f.x0 + f.x1) / 2, (f.top + f.bottom) / 2))
      .map((f) => f.text)
      .join(' ');
    if (overlaid.replace(/\s/g, '').length > MAX_OVERLAID) continue;
    out.push({ kind: 'image', box, overlaid });
    if (out.length === MAX_REGIONS) break;
  }
  return out;
}

function inside(box: Box, x: number, y: number): boolean {
  return x >= box[0] && x <= box[2] && y >= box[1] && y <= box[3];
}

function area(box: Box): number {
  return (box[2] - box[0]) * (box[3] - box[1]);
}

function overlap(a: Box, b: Box): number {
  return Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0])) * Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
}
