/**
 * Detected text lines → model views for a text-block reader. The reader was trained on 128×512
 * views holding 1–4 lines set at 18–32 px, so a line is cut out upright at a fixed height (close
 * to the training text size, whatever the page's resolution); a line too long for the view's
 * width is cut at blank columns into pieces, stacked as the lines of one view (more views when
 * even that is not enough). Views are exactly the view size, so the model's preprocessing does
 * not rescale them.
 */
import type { PageImage } from '../engine.ts';
import { scaledWidth, walkBox } from '../paddle/crop.ts';
import type { RotatedBox } from '../paddle/geometry.ts';
import type { Rgb } from '../paddle/raster.ts';
import { sample } from '../paddle/raster.ts';
import type { ViewSize } from './config.ts';

export interface LineViewOptions {
  /** Height of one line's slot in the view, in view pixels. @default 36 */
  readonly lineHeight?: number;
  /**
   * Height the line's ink (ascenders to descenders) is scaled to, in view pixels: the training
   * text was set at 18–32 px. Measured on the line, since DB boxes carry a margin that varies.
   * 0 scales the box to `lineHeight` instead. @default 26
   */
  readonly inkHeight?: number;
  /** Pieces of one line stacked in one view. @default 3 */
  readonly linesPerView?: number;
  /** White margin left and right of the pieces, in view pixels. @default 8 */
  readonly margin?: number;
}

export interface LineInput {
  readonly box: RotatedBox;
  /** Read the line upside down. */
  readonly flip: boolean;
}

export interface LineView {
  /** The line (index into the input) this view reads a part of; views of a line are in order. */
  readonly line: number;
  /** A white RGB view of exactly the model's view size. */
  readonly image: PageImage;
}

/**
 * Cut lines out of an upright page into views.
 *
 * @example
 * const views = lineViews(upright, lines, { height: 128, width: 512 }, { docId, source, pageNumber });
 */
export function lineViews(
  image: Rgb,
  lines: readonly LineInput[],
  view: ViewSize,
  page: Pick<PageImage, 'docId' | 'source' | 'pageNumber'>,
  options: Readonly<LineViewOptions> = {},
): LineView[] {
  const { lineHeight = Math.min(36, view.height), inkHeight = 26, linesPerView = Math.max(1, Math.floor(view.height / lineHeight)), margin = 8 } = options;
  const maxWidth = Math.max(16, view.width - 2 * margin);
  const out: LineView[] = [];
  lines.forEach((line, index) => {
    const strip = cutLine(image, inkHeight > 0 ? fitToInk(image, line, lineHeight, inkHeight) : line, lineHeight);
    const pieces = cutPoints(strip, maxWidth);
    for (let first = 0; first < pieces.length; first += linesPerView) {
      const group = pieces.slice(first, first + linesPerView);
      // Paper, not white: a pasted white frame around off-white paper would read as an edge.
      const data = new Uint8Array(view.width * view.height * 3).fill(paperLevel(strip.data));
      const top = Math.max(0, Math.floor((view.height - group.length * lineHeight) / 2));
      group.forEach(([x0, x1], k) => {
        for (let y = 0; y < lineHeight && top + (k + 1) * lineHeight <= view.height; y++) {
          for (let x = x0; x < x1; x++) {
            const g = strip.data[y * strip.width + x]!;
            const o = ((top + k * lineHeight + y) * view.width + margin + x - x0) * 3;
            data[o] = data[o + 1] = data[o + 2] = g;
          }
        }
      });
      out.push({ line: index, image: { ...page, data, width: view.width, height: view.height, channels: 3 } });
    }
  });
  return out;
}

/**
 * The line's box resized and shifted across the line so that, cut at `height`, its ink is
 * `inkHeight` tall and centred. A line with no measurable ink keeps its box.
 */
function fitToInk(image: Rgb, line: LineInput, height: number, inkHeight: number): LineInput {
  const probe = cutLine(image, line, height);
  const ink = inkLevel(probe.data);
  let top = -1;
  let bottom = -1;
  for (let y = 0; y < height; y++) {
    let dark = false;
    for (let x = 0; x < probe.width && !dark; x++) dark = probe.data[y * probe.width + x]! < ink;
    if (dark) {
      if (top < 0) top = y;
      bottom = y;
    }
  }
  if (top < 0 || bottom - top < 2) return line;
  const { box, flip } = line;
  const perPixel = box.h / height;
  // Where the ink's centre lies across the line, from the box centre, in page pixels.
  const shift = ((top + bottom + 1) / 2 - height / 2) * perPixel * (flip ? -1 : 1);
  const h = ((bottom - top + 1) * perPixel * height) / inkHeight;
  return { flip, box: { ...box, h, cx: box.cx - shift * Math.sin(box.angle), cy: box.cy + shift * Math.cos(box.angle), w: box.w } };
}

/** The lightest grey that is common (the 95th percentile): the paper. */
function paperLevel(data: Uint8Array): number {
  const counts = new Uint32Array(256);
  for (const g of data) counts[g]!++;
  let seen = 0;
  for (let g = 0; g < 256; g++) {
    seen += counts[g]!;
    if (seen >= 0.95 * data.length) return g;
  }
  return 255;
}

/** Grey level halfway between the darkest and the lightest pixel: below it is ink. */
function inkLevel(data: Uint8Array): number {
  let lo = 255;
  let hi = 0;
  for (const g of data) {
    if (g < lo) lo = g;
    if (g > hi) hi = g;
  }
  return hi - lo < 32 ? -1 : (lo + hi) / 2;
}

interface Strip {
  readonly data: Uint8Array;
  readonly width: number;
  readonly height: number;
}

/** The line upright (deskewed, flipped if asked) at `height` px, grey, bilinear. */
function cutLine(image: Rgb, line: LineInput, height: number): Strip {
  const { box, flip } = line;
  const width = scaledWidth(box, height);
  const data = new Uint8Array(width * height);
  walkBox(box, flip, width, height, (u, v, x, y) => {
    // The model's grey rule, on the sampled colour.
    data[v * width + u] = Math.round((sample(image, x, y, 0) * 19595 + sample(image, x, y, 1) * 38470 + sample(image, x, y, 2) * 7471) / 65536);
  });
  return { data, width, height };
}

/**
 * Split a strip into `[x0, x1)` pieces no wider than `maxWidth`, cutting in the middle of the
 * widest blank run of columns in the last third of each piece (a word space), or hard at the
 * width when there is none.
 */
export function cutPoints(strip: Strip, maxWidth: number): [number, number][] {
  const { data, width, height } = strip;
  const ink = inkLevel(data);
  const blank = new Uint8Array(width);
  for (let x = 0; x < width; x++) {
    let clear = 1;
    for (let y = 0; y < height; y++)
      if (data[y * width + x]! < ink) {
        clear = 0;
        break;
      }
    blank[x] = clear;
  }
  const pieces: [number, number][] = [];
  let start = 0;
  while (width - start > maxWidth) {
    const end = start + maxWidth;
    let best = -1;
    let bestRun = 0;
    let run = 0;
    for (let x = start + Math.floor((maxWidth * 2) / 3); x < end; x++) {
      run = blank[x] ? run + 1 : 0;
      if (run > 0 && run >= bestRun) {
        bestRun = run;
        best = x - Math.floor(run / 2);
      }
    }
    const cut = best > start ? best : end;
    pieces.push([start, cut]);
    start = cut;
  }
  pieces.push([start, width]);
  return pieces;
}
