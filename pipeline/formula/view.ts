/**
 * A formula crop → the image the model reads. The engine squeezes any image into the 128×512 view
 * (scale = min(512/w, 128/h), top-left); folio-ocr-math was trained on formulas typeset at 14–32 px
 * and never enlarged, so a small crop (an inline `x^2` of 20 px) would reach the model several times
 * larger than anything it saw. The crop is therefore set on a paper-coloured canvas large enough
 * that the engine's scale stays at most `maxUpscale`, with a small margin like the training views'.
 * (On the hand-cut crops of `bench/math/olmocr-crops.json`, 150 dpi, enlarging 1.5× or more turned
 * near misses into noise: 1 is the default, as in training.)
 */
import type { PageImage } from '../../inference/engine.ts';

export interface FormulaViewOptions {
  /** The model's view. @default { height: 128, width: 512 } */
  readonly view?: Readonly<{ height: number; width: number }>;
  /** Largest enlargement the engine may apply. @default 1 */
  readonly maxUpscale?: number;
  /** Paper around the crop, in crop pixels. @default 4 */
  readonly margin?: number;
}

/** Grey value of a crop's paper: the brightest of its four corners. */
function paperOf(grey: Uint8Array, width: number, height: number): number {
  return Math.max(grey[0]!, grey[width - 1]!, grey[(height - 1) * width]!, grey[height * width - 1]!);
}

function toGrey(image: PageImage): Uint8Array {
  const { data, width, height, channels } = image;
  if (channels === 1) return data;
  const out = new Uint8Array(width * height);
  for (let i = 0; i < width * height; i++) {
    const r = data[i * channels]!,
      g = data[i * channels + 1]!,
      b = data[i * channels + 2]!;
    const a = channels === 4 ? data[i * 4 + 3]! : 255;
    const c = (v: number) => Math.floor((v * a + 255 * (255 - a) + 127) / 255);
    out[i] = (c(r) * 19595 + c(g) * 38470 + c(b) * 7471 + 32768) >> 16;
  }
  return out;
}

/**
 * How much darker the darkest pixel is than the paper: a crop without ink (blank, a rule, a smudge)
 * is not read at all, since the model writes a formula for any image.
 *
 * @example
 * inkContrast(blankCrop) // 0
 */
export function inkContrast(crop: PageImage): number {
  const grey = toGrey(crop);
  let darkest = 255;
  for (const v of grey) if (v < darkest) darkest = v;
  return paperOf(grey, crop.width, crop.height) - darkest;
}

/**
 * @example
 * const image = formulaView(crop); // grey, at least 512/1.5 × 128/1.5 px, the crop top-left
 */
export function formulaView(crop: PageImage, options: Readonly<FormulaViewOptions> = {}): PageImage {
  const { view = { height: 128, width: 512 }, maxUpscale = 1, margin = 4 } = options;
  const grey = toGrey(crop);
  const w = crop.width + 2 * margin;
  const h = crop.height + 2 * margin;
  const scale = Math.min(view.width / w, view.height / h);
  const width = scale > maxUpscale ? Math.max(w, Math.ceil(view.width / maxUpscale)) : w;
  const height = scale > maxUpscale ? Math.max(h, Math.ceil(view.height / maxUpscale)) : h;
  const out = new Uint8Array(width * height).fill(paperOf(grey, crop.width, crop.height));
  for (let y = 0; y < crop.height; y++) out.set(grey.subarray(y * crop.width, (y + 1) * crop.width), (y + margin) * width + margin);
  return { ...crop, data: out, width, height, channels: 1 };
}
