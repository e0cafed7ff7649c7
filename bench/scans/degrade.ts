/**
 * The scan degrader: a clean page render made to look like an office scan. The page is skewed a
 * little (paper never feeds straight), blurred by the optics, noised by the sensor, maybe turned
 * a quarter or half (pages put in the feeder the wrong way) and saved as a JPEG.
 */

import sharp from 'sharp';
import { ConfigurationError } from '../../core/errors.ts';
import type { Random } from './random.ts';

/** How one page is degraded; drawn per page by {@link drawDegradation}. */
export interface Degradation {
  /** Skew in degrees, counter-clockwise positive (sharp's sign is clockwise). */
  readonly skewDeg: number;
  /** Gaussian blur sigma in pixels. */
  readonly blurSigma: number;
  /** Sensor noise: standard deviation of additive Gaussian noise in grey levels. */
  readonly noiseSigma: number;
  /** JPEG quality (1–100). */
  readonly jpegQuality: number;
  /** Clockwise quarter turns of the whole page, after the skew. */
  readonly turn: 0 | 90 | 180 | 270;
}

export interface DegradationRanges {
  /** Largest skew either way, degrees. @default 2 */
  readonly maxSkewDeg?: number;
  /** Blur sigma range. @default [0.5, 0.7] */
  readonly blur?: readonly [number, number];
  /** Noise sigma range. @default [10, 20] */
  readonly noise?: readonly [number, number];
  /** JPEG quality range. @default [65, 75] */
  readonly jpeg?: readonly [number, number];
  /** Share of pages turned 90, 180 or 270 degrees. @default 0.25 */
  readonly turnedShare?: number;
}

/** Draw one page's degradation from its random stream. */
export function drawDegradation(random: Random, ranges: Readonly<DegradationRanges> = {}): Degradation {
  const { maxSkewDeg = 2, blur = [0.5, 0.7], noise = [10, 20], jpeg = [65, 75], turnedShare = 0.25 } = ranges;
  const skewDeg = random.uniform(-maxSkewDeg, maxSkewDeg);
  const blurSigma = random.uniform(blur[0], blur[1]);
  const noiseSigma = random.uniform(noise[0], noise[1]);
  const jpegQuality = Math.round(random.uniform(jpeg[0], jpeg[1]));
  const turn = random.next() < turnedShare ? random.pick([90, 180, 270] as const) : 0;
  return { skewDeg, blurSigma, noiseSigma, jpegQuality, turn };
}

export interface DegradedPage {
  readonly jpeg: Uint8Array;
  readonly width: number;
  readonly height: number;
}

/**
 * Degrade a greyscale page (`width × height`, one byte per pixel). The skewed page keeps its
 * size (corners that rotate out are cut, as a scanner's platen would), the noise comes from
 * `random`, so the result is reproducible.
 *
 * @example
 * const { jpeg } = await degradePage(grey, 1700, 2200, drawDegradation(r), r);
 */
export async function degradePage(grey: Uint8Array, width: number, height: number, d: Readonly<Degradation>, random: Random): Promise<DegradedPage> {
  const raw = { raw: { width, height, channels: 1 as const } };
  // sharp turns clockwise for positive angles; the page's skew is counter-clockwise positive.
  const skewed = await sharp(grey, raw)
    .rotate(-d.skewDeg, { background: { r: 255, g: 255, b: 255 } })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const left = Math.max(0, Math.floor((skewed.info.width - width) / 2));
  const top = Math.max(0, Math.floor((skewed.info.height - height) / 2));
  const blurred = await sharp(skewed.data, { raw: { width: skewed.info.width, height: skewed.info.height, channels: skewed.info.channels } })
    .extract({ left, top, width: Math.min(width, skewed.info.width), height: Math.min(height, skewed.info.height) })
    .greyscale()
    .blur(Math.max(0.3, d.blurSigma))
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { data, info } = blurred;
  const noisy = new Uint8Array(info.width * info.height);
  for (let i = 0; i < noisy.length; i++) {
    const v = data[i * info.channels]! + d.noiseSigma * random.gaussian();
    noisy[i] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
  }
  let image = sharp(noisy, { raw: { width: info.width, height: info.height, channels: 1 } });
  if (d.turn !== 0) image = image.rotate(d.turn);
  // One component, as the PDF declares (DeviceGray): asking for a chroma subsampling makes libvips
  // write three, which PDFium and poppler then read as one and smear across the page.
  const out = await image.toColourspace('b-w').jpeg({ quality: d.jpegQuality }).toBuffer({ resolveWithObject: true });
  if (out.info.channels !== 1)
    throw new ConfigurationError('FOLIO_BENCH_DATASET', `bench scans: the degraded page came out with ${out.info.channels} channels, not 1`);
  return { jpeg: out.data, width: out.info.width, height: out.info.height };
}
