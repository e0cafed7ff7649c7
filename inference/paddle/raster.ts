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
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let nx: number;
      let ny: number;
      if (degrees === 90) { nx = h - 1 - y; ny = x; } else if (degrees === 180) { nx = w - 1 - x; ny = h - 1 - y; } else { nx = y; ny = w - 1 - x; }
      const s = (y * w + x) * 3;
      const d = (ny * ow + nx) * 3;
      out[d] = data[s]!; out[d + 1] = data[s + 1]!; out[d + 2] = data[s + 2]!;
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
  const out = new Float32Array(3 * width * height);
  const sx = image.width / width;
  const sy = image.height / height;
  const plane = width * height;
  const { data, width: iw } = image;
  for (let y = 0; y < height; y++) {
    const y0 = y * sy;
    const y1 = Math.min(image.height, (y + 1) * sy);
    for (let x = 0; x < width; x++) {
      let r = 0; let g = 0; let b = 0;
      if (sx <= 1 && sy <= 1) {
        const cx = (x + 0.5) * sx - 0.5;
        const cy = (y + 0.5) * sy - 0.5;
        r = sample(image, cx, cy, 0); g = sample(image, cx, cy, 1); b = sample(image, cx, cy, 2);
      } else {
        // Box filter over the source footprint: a plain bilinear pick aliases thin strokes away.
        const x0 = x * sx;
        const x1 = Math.min(image.width, (x + 1) * sx);
        let n = 0;
        for (let yy = Math.floor(y0); yy < Math.ceil(y1); yy++) {
          for (let xx = Math.floor(x0); xx < Math.ceil(x1); xx++) {
            const i = (yy * iw + xx) * 3;
            r += data[i]!; g += data[i + 1]!; b += data[i + 2]!; n++;
          }
        }
        r /= n; g /= n; b /= n;
      }
      const o = y * width + x;
      out[o] = (b / 255 - mean[0]!) / std[0]!;
      out[plane + o] = (g / 255 - mean[1]!) / std[1]!;
      out[2 * plane + o] = (r / 255 - mean[2]!) / std[2]!;
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
    sum += g; sq += g * g; count++;
  }
  const mean = sum / count;
  return { mean, spread: Math.sqrt(Math.max(0, sq / count - mean * mean)) };
}
