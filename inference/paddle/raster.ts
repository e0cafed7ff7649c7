/**
 * The small set of pixel operations the paddle engine needs, on plain RGB buffers: no native
 * image library inside `inference/`, so the engine works on whatever a renderer hands it.
 */
import type { PageImage } from '../engine.ts';

/** Interleaved 8-bit RGB pixels, top-left origin. */
export interface Rgb {
  readonly data: Uint8Array;
  readonly width: number;
  readonly height: number;
}

/** Any {@link PageImage} as RGB (grey is spread, alpha is composited on white). */
export function toRgb(page: Pick<PageImage, 'data' | 'width' | 'height' | 'channels'>): Rgb {
  const { data, width, height, channels } = page;
  const n = width * height;
  if (data.length < n * channels) {
    throw new RangeError(`image data holds ${data.length} bytes, expected ${n * channels} for ${width}×${height}×${channels}`);
  }
  if (channels === 3) return { data, width, height };
  const out = new Uint8Array(n * 3);
  if (channels === 1) {
    for (let i = 0; i < n; i++) out[i * 3] = out[i * 3 + 1] = out[i * 3 + 2] = data[i]!;
  } else {
    for (let i = 0; i < n; i++) {
      const a = data[i * 4 + 3]! / 255;
      // Transparent scans are usually meant on paper: composite on white, not black.
      for (let c = 0; c < 3; c++) out[i * 3 + c] = Math.round(data[i * 4 + c]! * a + 255 * (1 - a));
    }
  }
  return { data: out, width, height };
}

/** Rotate clockwise by a multiple of 90°. */
export function rotateRgb(image: Rgb, degrees: 0 | 90 | 180 | 270): Rgb {
  if (degrees === 0) return image;
  const { data, width: w, height: h } = image;
  const ow = degrees === 180 ? w : h;
  const oh = degrees === 180 ? h : w;
  const out = new Uint8Array(ow * oh * 3);
  // One loop per turn, stepping the destination index by a constant: this runs for every pixel
  // of a page, and a per-pixel switch on the angle cost more than the copy.
  if (degrees === 180) {
    for (let s = 0, d = (w * h - 1) * 3; s < w * h * 3; s += 3, d -= 3) {
      out[d] = data[s]!;
      out[d + 1] = data[s + 1]!;
      out[d + 2] = data[s + 2]!;
    }
  } else {
    // 90: (x, y) → (h - 1 - y, x); 270: (x, y) → (y, w - 1 - x).
    const step = degrees === 90 ? ow * 3 : -ow * 3;
    for (let y = 0; y < h; y++) {
      let d = degrees === 90 ? (h - 1 - y) * 3 : ((w - 1) * ow + y) * 3;
      for (let x = 0, s = y * w * 3; x < w; x++, s += 3, d += step) {
        out[d] = data[s]!;
        out[d + 1] = data[s + 1]!;
        out[d + 2] = data[s + 2]!;
      }
    }
  }
  return { data: out, width: ow, height: oh };
}

/**
 * Bilinear sample of channel `c` at a fractional position; outside the image reads white,
 * because page margins are paper.
 */
export function sample(image: Rgb, x: number, y: number, c: number): number {
  const { data, width, height } = image;
  if (x < -0.5 || y < -0.5 || x > width - 0.5 || y > height - 0.5) return 255;
  const fx = Math.min(Math.max(x, 0), width - 1);
  const fy = Math.min(Math.max(y, 0), height - 1);
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const x1 = Math.min(x0 + 1, width - 1);
  const y1 = Math.min(y0 + 1, height - 1);
  const ax = fx - x0;
  const ay = fy - y0;
  const p00 = data[(y0 * width + x0) * 3 + c]!;
  const p10 = data[(y0 * width + x1) * 3 + c]!;
  const p01 = data[(y1 * width + x0) * 3 + c]!;
  const p11 = data[(y1 * width + x1) * 3 + c]!;
  return (p00 * (1 - ax) + p10 * ax) * (1 - ay) + (p01 * (1 - ax) + p11 * ax) * ay;
}

/**
 * Area-average downscale (or bilinear upscale) into a normalised CHW float tensor, channels in
 * BGR order because PaddleOCR trained on OpenCV-loaded images.
 */
export function resizeToChw(image: Rgb, width: number, height: number, mean: readonly number[], std: readonly number[]): Float32Array {
  const sx = image.width / width;
  const sy = image.height / height;
  return sx <= 1 && sy <= 1 ? upscaleToChw(image, width, height, mean, std) : boxScaleToChw(image, width, height, mean, std);
}

/** Write one pixel's normalised BGR values into the three planes. */
function put(out: Float32Array, o: number, plane: number, r: number, g: number, b: number, mean: readonly number[], std: readonly number[]): void {
  out[o] = (b / 255 - mean[0]!) / std[0]!;
  out[plane + o] = (g / 255 - mean[1]!) / std[1]!;
  out[2 * plane + o] = (r / 255 - mean[2]!) / std[2]!;
}

/**
 * Box filter over each output pixel's source footprint (the whole source pixels it touches): a
 * plain bilinear pick aliases thin strokes away. Footprints are computed once per column and
 * row, and each output row sums its source rows into one accumulator.
 */
function boxScaleToChw(image: Rgb, width: number, height: number, mean: readonly number[], std: readonly number[]): Float32Array {
  const { data, width: iw, height: ih } = image;
  const sx = iw / width;
  const sy = ih / height;
  const out = new Float32Array(3 * width * height);
  const plane = width * height;
  const x0s = new Int32Array(width);
  const x1s = new Int32Array(width);
  for (let x = 0; x < width; x++) {
    x0s[x] = Math.floor(x * sx);
    x1s[x] = Math.max(x0s[x]! + 1, Math.ceil(Math.min(iw, (x + 1) * sx)));
  }
  const acc = new Float64Array(width * 3);
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor(y * sy);
    const y1 = Math.max(y0 + 1, Math.ceil(Math.min(ih, (y + 1) * sy)));
    acc.fill(0);
    for (let yy = y0; yy < y1; yy++) {
      const row = yy * iw * 3;
      for (let x = 0; x < width; x++) {
        let r = 0;
        let g = 0;
        let b = 0;
        for (let i = row + x0s[x]! * 3, end = row + x1s[x]! * 3; i < end; i += 3) {
          r += data[i]!;
          g += data[i + 1]!;
          b += data[i + 2]!;
        }
        acc[x * 3] = acc[x * 3]! + r;
        acc[x * 3 + 1] = acc[x * 3 + 1]! + g;
        acc[x * 3 + 2] = acc[x * 3 + 2]! + b;
      }
    }
    const rows = y1 - y0;
    for (let x = 0; x < width; x++) {
      const n = rows * (x1s[x]! - x0s[x]!);
      put(out, y * width + x, plane, acc[x * 3]! / n, acc[x * 3 + 1]! / n, acc[x * 3 + 2]! / n, mean, std);
    }
  }
  return out;
}

/** Bilinear upscale (small images: every output pixel lies between four source pixels). */
function upscaleToChw(image: Rgb, width: number, height: number, mean: readonly number[], std: readonly number[]): Float32Array {
  const out = new Float32Array(3 * width * height);
  const sx = image.width / width;
  const sy = image.height / height;
  const plane = width * height;
  for (let y = 0; y < height; y++) {
    const cy = (y + 0.5) * sy - 0.5;
    for (let x = 0; x < width; x++) {
      const cx = (x + 0.5) * sx - 0.5;
      put(out, y * width + x, plane, sample(image, cx, cy, 0), sample(image, cx, cy, 1), sample(image, cx, cy, 2), mean, std);
    }
  }
  return out;
}

/** Mean and standard deviation of the grey level over a sparse sample of pixels. */
export function toneOf(image: Rgb): { mean: number; spread: number } {
  const n = image.width * image.height;
  const step = Math.max(1, Math.floor(n / 20000));
  let sum = 0;
  let sq = 0;
  let count = 0;
  for (let i = 0; i < n; i += step) {
    const g = (image.data[i * 3]! + image.data[i * 3 + 1]! + image.data[i * 3 + 2]!) / 3;
    sum += g;
    sq += g * g;
    count++;
  }
  const mean = sum / count;
  return { mean, spread: Math.sqrt(Math.max(0, sq / count - mean * mean)) };
}
