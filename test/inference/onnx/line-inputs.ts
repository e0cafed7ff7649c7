/** Line crops for the line reader's tests: rendered lines from fixtures and the bad inputs made here. */
import sharp from 'sharp';
import type { Rgb } from '../../../inference/paddle/raster.ts';

export const LINE_TEXTS = ['The quick brown fox jumps over the lazy dog, 42 times.', 'const total = items.reduce((a, b) => a + b, 0);'];

export async function fixtureLine(index: number): Promise<Rgb> {
  const { data, info } = await sharp(new URL(`../../fixtures/lines/line-${index}.png`, import.meta.url).pathname)
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

/** Mulberry32: the same "random" pixels on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function make(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]): Rgb {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      const o = (y * width + x) * 3;
      data[o] = r;
      data[o + 1] = g;
      data[o + 2] = b;
    }
  return { data, width, height };
}

export function noiseCrop(width = 600, height = 60): Rgb {
  const r = random(7);
  return make(width, height, () => {
    const v = Math.floor(r() * 256);
    return [v, v, v];
  });
}

export function blankCrop(width = 600, height = 60): Rgb {
  return make(width, height, () => [243, 243, 243]);
}

/** Something like a photograph: smooth colour fields, a bright disc, sensor noise. */
export function photoCrop(width = 640, height = 120): Rgb {
  const r = random(11);
  return make(width, height, (x, y) => {
    const sky = 120 + 80 * Math.sin(x / 97) * Math.cos(y / 41);
    const sun = Math.hypot(x - 420, y - 40) < 30 ? 90 : 0;
    const n = (r() - 0.5) * 30;
    const c = (v: number): number => Math.max(0, Math.min(255, Math.round(v + sun + n)));
    return [c(sky + 30), c(sky), c(sky * 0.6 + 40 * Math.sin(y / 13))];
  });
}

/** The line repeated side by side until `width` pixels: a very long line of real text. */
export function longLine(line: Rgb, width: number): Rgb {
  return make(width, line.height, (x, y) => {
    const o = (y * line.width + (x % line.width)) * 3;
    return [line.data[o]!, line.data[o + 1]!, line.data[o + 2]!];
  });
}

export function turned(line: Rgb): Rgb {
  return make(line.width, line.height, (x, y) => {
    const o = ((line.height - 1 - y) * line.width + (line.width - 1 - x)) * 3;
    return [line.data[o]!, line.data[o + 1]!, line.data[o + 2]!];
  });
}

/** A box over the whole crop, a few pixels in. */
export function wholeBox(image: Rgb) {
  return { cx: image.width / 2, cy: image.height / 2, w: Math.max(1, image.width - 8), h: Math.max(1, image.height - 8), angle: 0 };
}
