/**
 * Text detection with the PP-OCRv4 DB model: the page is scaled so its longer side fits the
 * detection size (a multiple of 32, as the network downsamples by 32), the model returns a
 * per-pixel text probability, and DB post-processing turns that map into line boxes.
 */
import type { OnnxSession } from '../runtime/ort.ts';
import { tensor } from '../runtime/ort.ts';
import type { Point, RotatedBox } from './geometry.ts';
import { minAreaRect, unclip } from './geometry.ts';
import type { Rgb } from './raster.ts';
import { resizeToChw } from './raster.ts';
import type { StageTimes } from './stages.ts';
import { lap } from './stages.ts';

const MEAN = [0.485, 0.456, 0.406] as const;
const STD = [0.229, 0.224, 0.225] as const;

export interface DetectOptions {
  /** Longer side of the detection input, rounded to a multiple of 32. @default 960 */
  readonly maxSide?: number;
  /** Probability above which a pixel is text. @default 0.3 */
  readonly threshold?: number;
  /** Mean probability a box needs to be kept. @default 0.6 */
  readonly boxThreshold?: number;
  /** DB unclip ratio. @default 1.6 */
  readonly unclipRatio?: number;
  /** Stage times to add to (`detPre`, `detRun`, `db`). */
  readonly times?: StageTimes;
}

export interface DetectedLine {
  /** In image pixels. */
  readonly box: RotatedBox;
  readonly score: number;
}

/** Detect text lines in an RGB image; boxes come back in the image's pixel coordinates. */
export async function detectLines(session: OnnxSession, image: Rgb, options: Readonly<DetectOptions> = {}): Promise<DetectedLine[]> {
  const { maxSide = 960, threshold = 0.3, boxThreshold = 0.6, unclipRatio = 1.6, times } = options;
  let t = performance.now();
  // Small images are scaled up too (at most 2×): at 72 DPI, lines are so close that their
  // kernels merge across line and column gaps at native size.
  const scale = Math.min(2, maxSide / Math.max(image.width, image.height));
  const round32 = (v: number): number => Math.max(32, Math.round(v / 32) * 32);
  const w = round32(image.width * scale);
  const h = round32(image.height * scale);
  const input = resizeToChw(image, w, h, MEAN, STD);
  t = lap(times, 'detPre', t);
  const outputs = await session.run({ x: tensor('float32', input, [1, 3, h, w]) });
  t = lap(times, 'detRun', t);
  const prob = Object.values(outputs)[0];
  if (prob === undefined) return [];
  const [, , mh = h, mw = w] = prob.dims;
  const map = prob.data as Float32Array;
  const lines = dbBoxes(map, mw, mh, { threshold, boxThreshold, unclipRatio });
  lap(times, 'db', t);
  const fx = image.width / mw;
  const fy = image.height / mh;
  // Scale back; x and y scale almost alike (rounding to 32 only), so the angle survives.
  return lines.map(({ box, score }) => ({
    score,
    box: {
      cx: box.cx * fx,
      cy: box.cy * fy,
      w: box.w * Math.hypot(Math.cos(box.angle) * fx, Math.sin(box.angle) * fy),
      h: box.h * Math.hypot(Math.sin(box.angle) * fx, Math.cos(box.angle) * fy),
      angle: box.angle,
    },
  }));
}

/**
 * DB post-processing: binarise, label 4-connected regions, score each by its mean probability,
 * fit a minimum-area rectangle and unclip it.
 */
export function dbBoxes(
  map: Float32Array,
  width: number,
  height: number,
  options: Readonly<Required<Omit<DetectOptions, 'maxSide' | 'times'>>>,
): DetectedLine[] {
  const { threshold, boxThreshold, unclipRatio } = options;
  const labels = new Int32Array(width * height);
  const stack = new Int32Array(width * height);
  const result: DetectedLine[] = [];
  let next = 0;
  for (let start = 0; start < map.length; start++) {
    if (labels[start] !== 0 || map[start]! <= threshold) continue;
    next++;
    labels[start] = next;
    let top = 0;
    stack[top++] = start;
    let sum = 0;
    let count = 0;
    // Row extremes are enough for the hull: interior pixels never lie on it.
    const rowMin = new Map<number, number>();
    const rowMax = new Map<number, number>();
    while (top > 0) {
      const p = stack[--top]!;
      const x = p % width;
      const y = (p - x) / width;
      sum += map[p]!;
      count++;
      const lo = rowMin.get(y);
      if (lo === undefined || x < lo) rowMin.set(y, x);
      const hi = rowMax.get(y);
      if (hi === undefined || x > hi) rowMax.set(y, x);
      if (x > 0 && labels[p - 1] === 0 && map[p - 1]! > threshold) {
        labels[p - 1] = next;
        stack[top++] = p - 1;
      }
      if (x < width - 1 && labels[p + 1] === 0 && map[p + 1]! > threshold) {
        labels[p + 1] = next;
        stack[top++] = p + 1;
      }
      if (y > 0 && labels[p - width] === 0 && map[p - width]! > threshold) {
        labels[p - width] = next;
        stack[top++] = p - width;
      }
      if (y < height - 1 && labels[p + width] === 0 && map[p + width]! > threshold) {
        labels[p + width] = next;
        stack[top++] = p + width;
      }
    }
    if (count < 4) continue;
    const score = sum / count;
    if (score < boxThreshold) continue;
    const points: Point[] = [];
    // Pixel corners, not centres, so a one-pixel-high kernel still has height.
    for (const [y, x0] of rowMin) {
      const x1 = rowMax.get(y)!;
      points.push([x0, y], [x1 + 1, y], [x0, y + 1], [x1 + 1, y + 1]);
    }
    const kernel = minAreaRect(points);
    if (Math.min(kernel.w, kernel.h) < 2) continue;
    const box = unclip(kernel, unclipRatio);
    if (box.h < 4) continue;
    result.push({ box, score });
  }
  return result;
}
