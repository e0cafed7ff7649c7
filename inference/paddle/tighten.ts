/**
 * Fit a line box to its ink before the recogniser sees it. DB boxes are the detected kernel
 * grown by a fixed unclip ratio, so how much paper they hold above and below the text depends on
 * the detection scale and the type: on a page scaled down for detection, small type comes back
 * in a box two and a half times as tall as its ink. The recogniser scales every line to 48 px
 * high, so that type then fills less than half of its input, at a size the model reads badly
 * (a page of it read 46% of its words right, 84% once fitted). Cutting the box down to the ink
 * plus a fixed margin gives the model the same framing on every page. It costs work: a shorter
 * box is a wider line at 48 px, so the margin is a trade (see {@link TightenOptions.margin}).
 *
 * The box is only ever shrunk, and only along its own axes, so skewed lines stay deskewed.
 * Layout keeps using the DB boxes (its thresholds are set for them); only the crop changes.
 */
import type { RotatedBox } from './geometry.ts';
import type { Rgb } from './raster.ts';

export interface TightenOptions {
  /**
   * Paper kept above and below the ink, as a share of the ink's height: the crop is at most
   * 1 + 2 × margin times as tall as the ink. Smaller reads small type better but makes every
   * line wider in the recogniser (width is proportional to 1 / height): 0.25 cost 10% more work
   * than 0.4 for a few more words on a page of small type and none elsewhere; DB's own boxes
   * (about 0.45 on normal pages, 0.7 on small type) read small type badly.
   * @default 0.4
   */
  readonly margin?: number;
  /** Paper kept before and after the ink, as a share of the ink's height. @default 0.25 */
  readonly sideMargin?: number;
}

/** How far ascenders and descenders reach beyond the x-height, as a share of it. */
const ASCENDER = 0.9;
const DESCENDER = 0.6;

/** Columns sampled across a line at most; the ink's extent does not need every pixel. */
const MAX_SAMPLES = 480;

/**
 * The part of `box` that holds the line's ink, with margins.
 *
 * @example
 * const crop = tightenBox(upright, line.box);
 */
export function tightenBox(image: Rgb, box: RotatedBox, options: Readonly<TightenOptions> = {}): RotatedBox {
  const { margin = 0.4, sideMargin = 0.25 } = options;
  const rows = Math.round(box.h);
  const cols = Math.min(MAX_SAMPLES, Math.round(box.w));
  if (rows < 6 || cols < 4) return box;
  const grey = sampleGrey(image, box, cols, rows);
  let lo = 255;
  let hi = 0;
  for (const g of grey) {
    if (g < lo) lo = g;
    if (g > hi) hi = g;
  }
  if (hi - lo < 40) return box;
  const level = (lo + hi) / 2;
  const inkPerRow = new Int32Array(rows);
  for (let v = 0; v < rows; v++) {
    for (let u = 0; u < cols; u++) if (grey[v * cols + u]! < level) inkPerRow[v]!++;
    // A row inked nearly across is a rule (table border, underline), not text.
    if (inkPerRow[v]! > 0.8 * cols) inkPerRow[v] = 0;
  }
  // Ascenders and descenders reach a known share of the text's body above and below it; with
  // tight leading a neighbour's descenders or ascenders touch the same rows, so a blank row alone
  // cannot be relied on to end the line, but it does end it where there is one.
  const { coreTop, coreBottom } = textBody(inkPerRow);
  const core = coreBottom - coreTop + 1;
  let top = coreTop;
  while (top > 0 && inkPerRow[top - 1]! > 0 && coreTop - (top - 1) <= ASCENDER * core) top--;
  let bottom = coreBottom;
  while (bottom < rows - 1 && inkPerRow[bottom + 1]! > 0 && bottom + 1 - coreBottom <= DESCENDER * core) bottom++;
  let left = cols;
  let right = -1;
  for (let v = top; v <= bottom; v++) {
    for (let u = 0; u < cols; u++) {
      if (grey[v * cols + u]! < level) {
        if (u < left) left = u;
        if (u > right) right = u;
      }
    }
  }
  if (right < left) return box;
  const inkH = (bottom - top + 1) * (box.h / rows);
  // A band this thin is a stroke or a speck, not a line of text: keep the detector's box.
  if (inkH < 0.25 * box.h) return box;
  const su = box.w / cols;
  const h = Math.min(box.h, inkH * (1 + 2 * margin));
  const x0 = Math.max(0, left * su - sideMargin * inkH);
  const x1 = Math.min(box.w, (right + 1) * su + sideMargin * inkH);
  // Shift of the centre along the box's own axes (u along the text, v across it).
  const du = (x0 + x1) / 2 - box.w / 2;
  const dv = ((top + bottom + 1) / 2) * (box.h / rows) - box.h / 2;
  const c = Math.cos(box.angle);
  const s = Math.sin(box.angle);
  return { cx: box.cx + du * c - dv * s, cy: box.cy + du * s + dv * c, w: x1 - x0, h, angle: box.angle };
}

/**
 * The body of the text (its x-height band): of the runs of densely inked rows (at least a third
 * of the most inked row's ink), the one holding the most ink. A neighbouring line reaching into
 * the box shows only its descenders or the top of its body, which hold less.
 */
function textBody(inkPerRow: Int32Array): { coreTop: number; coreBottom: number } {
  let most = 0;
  for (const n of inkPerRow) if (n > most) most = n;
  const dense = 0.35 * most;
  let best = { coreTop: 0, coreBottom: 0, ink: -1 };
  for (let v = 0; v < inkPerRow.length; ) {
    if (inkPerRow[v]! < dense) {
      v++;
      continue;
    }
    const start = v;
    let ink = 0;
    while (v < inkPerRow.length && inkPerRow[v]! >= dense) ink += inkPerRow[v++]!;
    if (ink > best.ink) best = { coreTop: start, coreBottom: v - 1, ink };
  }
  return best;
}

/** Grey levels on a `cols × rows` grid laid along the box (nearest pixel; outside is white). */
function sampleGrey(image: Rgb, box: RotatedBox, cols: number, rows: number): Uint8Array {
  const { data, width, height } = image;
  const out = new Uint8Array(cols * rows);
  const c = Math.cos(box.angle);
  const s = Math.sin(box.angle);
  const su = box.w / cols;
  const sv = box.h / rows;
  for (let v = 0; v < rows; v++) {
    const dv = (v + 0.5) * sv - box.h / 2;
    for (let u = 0; u < cols; u++) {
      const du = (u + 0.5) * su - box.w / 2;
      const x = Math.floor(box.cx + du * c - dv * s);
      const y = Math.floor(box.cy + du * s + dv * c);
      if (x < 0 || y < 0 || x >= width || y >= height) {
        out[v * cols + u] = 255;
        continue;
      }
      const i = (y * width + x) * 3;
      out[v * cols + u] = (data[i]! * 77 + data[i + 1]! * 150 + data[i + 2]! * 29) >> 8;
    }
  }
  return out;
}
