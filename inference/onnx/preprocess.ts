/**
 * Page pixels → the model's views, exactly as the folio-ocr models were trained
 * (`folio-model.json` → `image`): alpha composited on white, grey by PIL's integer formula,
 * nearest-neighbour fit into the view placed top-left on a white canvas, then `(v/255 − mean)/std`.
 *
 * The resize is written out here rather than left to an image library: the rule is integer
 * arithmetic on source indices, and any other sampler (sharp's included) would feed the model
 * pixels it never saw in training. Every step is integer math, then fp32 arithmetic in numpy's
 * order: the same bits the reference preprocessing produces.
 *
 * With `maxTiles > 0` the page is also cut into tiles (DeepSeek-OCR's `dynamic_preprocess`: the
 * grid whose aspect ratio is closest to the page's), which come before the global view.
 */
import { InferenceError } from '../../core/errors.ts';
import type { PageImage } from '../engine.ts';
import type { OcrModelConfig, ViewSize } from './config.ts';

/** Views of one page, each [3, height, width] in `data` one after the other. */
export interface PageViews {
  readonly size: ViewSize;
  readonly count: number;
  readonly data: Float32Array;
  /** Tiles first (row-major), then the global view. */
  readonly tiles: number;
}

export interface PreprocessOptions {
  readonly image: OcrModelConfig['image'];
  /** Largest page side accepted, in pixels. @default 16384 */
  readonly maxSide?: number;
}

/**
 * Turn one page into normalised views.
 *
 * @example
 * const views = preprocessPage(page, { image: model.config.image });
 */
export function preprocessPage(page: PageImage, options: Readonly<PreprocessOptions>): PageViews {
  const { image, maxSide = 16384 } = options;
  checkPage(page, maxSide);
  const plane = toPlanes(page, image.colour);
  const tiles =
    image.maxTiles > 0 && (page.width > image.tile.width || page.height > image.tile.height)
      ? tileGrid(page.width, page.height, image.tile, image.maxTiles)
      : undefined;
  if (tiles !== undefined && (image.tile.width !== image.globalView.width || image.tile.height !== image.globalView.height)) {
    // Views of two sizes cannot share one [N,3,H,W] tensor: callers would need two vision runs
    // per page; no folio-ocr model needs that yet.
    throw new InferenceError(
      'FOLIO_MODEL_CONFIG',
      `tiles of ${image.tile.width}×${image.tile.height} beside a ${image.globalView.width}×${image.globalView.height} global view are not supported yet`,
    );
  }
  const size = image.globalView;
  const per = 3 * size.height * size.width;
  const count = (tiles === undefined ? 0 : tiles.cols * tiles.rows) + 1;
  const data = new Float32Array(count * per);
  let view = 0;
  if (tiles !== undefined) {
    const W = tiles.cols * size.width;
    const H = tiles.rows * size.height;
    const stretched = resizeNearest(plane, page.width, page.height, W, H);
    for (let ty = 0; ty < tiles.rows; ty++) {
      for (let tx = 0; tx < tiles.cols; tx++) {
        const tile = new Uint8Array(size.width * size.height);
        for (let y = 0; y < size.height; y++)
          tile.set(stretched.subarray((ty * size.height + y) * W + tx * size.width, (ty * size.height + y) * W + (tx + 1) * size.width), y * size.width);
        normalise(tile, image, data.subarray(view * per, (view + 1) * per));
        view++;
      }
    }
  }
  normalise(fitView(plane, page.width, page.height, size), image, data.subarray(view * per, (view + 1) * per));
  return { size, count, data, tiles: count - 1 };
}

function checkPage(page: PageImage, maxSide: number): void {
  const name = `page ${page.pageNumber} of ${page.source}`;
  const { width, height, channels, data } = page;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new InferenceError('FOLIO_PAGE_EMPTY', `${name}: the image is ${width}×${height} px; there is nothing to recognise`, {
      meta: { source: page.source, pageNumber: page.pageNumber },
    });
  }
  if (width > maxSide || height > maxSide) {
    throw new InferenceError(
      'FOLIO_PAGE_TOO_LARGE',
      `${name}: the image is ${width}×${height} px, over the ${maxSide} px limit per side (option \`maxImageSide\`); render it at a lower resolution or split it`,
      { meta: { source: page.source, pageNumber: page.pageNumber, width, height } },
    );
  }
  if (![1, 3, 4].includes(channels) || data.length !== width * height * channels) {
    throw new InferenceError(
      'FOLIO_PAGE_PIXELS',
      `${name}: expected ${width}×${height}×${channels} = ${width * height * channels} bytes of pixels, got ${data.length}`,
      { meta: { source: page.source, pageNumber: page.pageNumber } },
    );
  }
}

/** One 8-bit plane per output channel: grey as 1 plane, RGB as 3 (interleaved kept as planes). */
function toPlanes(page: PageImage, colour: 'grey' | 'rgb'): Uint8Array {
  const { data, width, height, channels } = page;
  const n = width * height;
  if (colour !== 'grey') throw new InferenceError('FOLIO_MODEL_CONFIG', 'colour models are not supported yet: folio-ocr models read grey pages');
  if (channels === 1) return data;
  const grey = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    let r = data[i * channels]!;
    let g = data[i * channels + 1]!;
    let b = data[i * channels + 2]!;
    if (channels === 4) {
      // Composite on white first, with PIL's rounding.
      const a = data[i * 4 + 3]!;
      r = Math.floor((r * a + 255 * (255 - a) + 127) / 255);
      g = Math.floor((g * a + 255 * (255 - a) + 127) / 255);
      b = Math.floor((b * a + 255 * (255 - a) + 127) / 255);
    }
    // PIL's convert('L'): ITU-R 601-2 luma in 16-bit fixed point.
    grey[i] = (r * 19595 + g * 38470 + b * 7471 + 32768) >> 16;
  }
  return grey;
}

/** Fit into the view keeping the aspect ratio, nearest neighbour, top-left on white. */
function fitView(plane: Uint8Array, w: number, h: number, view: ViewSize): Uint8Array {
  if (w === view.width && h === view.height) return plane;
  const scale = Math.min(view.width / w, view.height / h);
  const nw = Math.min(view.width, Math.max(1, Math.floor(w * scale)));
  const nh = Math.min(view.height, Math.max(1, Math.floor(h * scale)));
  const resized = resizeNearest(plane, w, h, nw, nh);
  const canvas = new Uint8Array(view.width * view.height).fill(255);
  for (let y = 0; y < nh; y++) canvas.set(resized.subarray(y * nw, (y + 1) * nw), y * view.width);
  return canvas;
}

function resizeNearest(plane: Uint8Array, w: number, h: number, nw: number, nh: number): Uint8Array {
  const out = new Uint8Array(nw * nh);
  const xs = new Int32Array(nw);
  // Same float64 expression, same order, as the Python rule: min(w-1, floor((x+0.5)*w/nw)).
  for (let x = 0; x < nw; x++) xs[x] = Math.min(w - 1, Math.floor(((x + 0.5) * w) / nw));
  for (let y = 0; y < nh; y++) {
    const sy = Math.min(h - 1, Math.floor(((y + 0.5) * h) / nh));
    const row = sy * w;
    for (let x = 0; x < nw; x++) out[y * nw + x] = plane[row + xs[x]!]!;
  }
  return out;
}

/** (v/255 − mean)/std into [3, H, W], grey replicated to the three channels. */
function normalise(plane: Uint8Array, image: OcrModelConfig['image'], out: Float32Array): void {
  const n = plane.length;
  for (let c = 0; c < 3; c++) {
    const table = new Float32Array(256);
    // Rounded to fp32 after each operation, as numpy does on float32 arrays: in float64 then
    // rounded once, half of the 256 values come out one ulp off.
    const mean = Math.fround(image.mean[c]!);
    const std = Math.fround(image.std[c]!);
    for (let v = 0; v < 256; v++) table[v] = Math.fround(Math.fround(Math.fround(v / 255) - mean) / std);
    for (let i = 0; i < n; i++) out[c * n + i] = table[plane[i]!]!;
  }
}

/** DeepSeek-OCR's choice of tile grid: the aspect ratio closest to the page's, larger grids winning ties when the page is big enough. */
export function tileGrid(width: number, height: number, tile: ViewSize, maxTiles: number): { cols: number; rows: number } {
  const aspect = width / height;
  let best = { cols: 1, rows: 1 };
  let bestDiff = Infinity;
  for (let n = 2; n <= maxTiles; n++) {
    for (let cols = 1; cols <= n; cols++) {
      if (n % cols !== 0) continue;
      const rows = n / cols;
      const diff = Math.abs(aspect - (cols * tile.width) / (rows * tile.height));
      if (diff < bestDiff || (diff === bestDiff && width * height > 0.5 * tile.width * tile.height * cols * rows)) {
        bestDiff = diff;
        best = { cols, rows };
      }
    }
  }
  return best;
}
