/**
 * Pages → prompts as embeddings: `prefix_ids`, one `<image>` slot per visual token, `suffix_ids`
 * (folio-model.json → `prompt`); the slots take the rows of `vision.onnx`'s output in order (tiles
 * row-major, then the global view). Views of all pages go through the vision network together.
 */

import { InferenceError } from '../../core/errors.ts';
import type { PageImage } from '../engine.ts';
import { tensor } from '../runtime/ort.ts';
import type { TextTokenizer } from '../tokenizer/tokenizer.ts';
import type { PromptEmbeds } from './generate.ts';
import type { OcrModel } from './load.ts';
import { preprocessPage } from './preprocess.ts';

export interface EncodePagesOptions {
  /** Largest page side accepted, in pixels. @default 16384 */
  readonly maxImageSide?: number;
}

export interface EncodedPages {
  readonly prompts: PromptEmbeds[];
  /** Ids of each prompt, image slots included (for inspection and tests). */
  readonly ids: number[][];
  readonly visionMs: number;
}

/**
 * Preprocess pages, run the vision network once over all their views, and splice the prompts.
 *
 * @example
 * const { prompts } = await encodePages(model, [page]);
 */
export async function encodePages(model: OcrModel, pages: readonly PageImage[], options: Readonly<EncodePagesOptions> = {}): Promise<EncodedPages> {
  const { maxImageSide = 16384 } = options;
  const { config, forward } = model;
  const H = config.decoder.hidden;
  const views = pages.map((page) => preprocessPage(page, { image: config.image, maxSide: maxImageSide }));
  const total = views.reduce((n, v) => n + v.count, 0);
  const size = config.image.globalView;
  const pixels = new Float32Array(total * 3 * size.height * size.width);
  let offset = 0;
  for (const v of views) {
    pixels.set(v.data, offset);
    offset += v.data.length;
  }
  const started = performance.now();
  const out = await model.vision.run({ pixel_values: tensor('float32', pixels, [total, 3, size.height, size.width]) });
  const visual = out[model.visualOutput]?.data;
  if (!(visual instanceof Float32Array) || visual.length !== total * config.tokensPerView * H) {
    throw new InferenceError('FOLIO_MODEL_OUTPUT', `${model.vision.path}: expected ${total}×${config.tokensPerView}×${H} visual embeddings`);
  }
  const visionMs = performance.now() - started;

  const { prefixIds, suffixIds } = config.prompt;
  const text = await forward.embed([...prefixIds, ...suffixIds]);
  const prompts: PromptEmbeds[] = [];
  const ids: number[][] = [];
  let row = 0;
  for (const v of views) {
    const T = v.count * config.tokensPerView;
    const length = prefixIds.length + T + suffixIds.length;
    const embeds = new Float32Array(length * H);
    embeds.set(text.subarray(0, prefixIds.length * H), 0);
    embeds.set(visual.subarray(row * H, (row + T) * H), prefixIds.length * H);
    embeds.set(text.subarray(prefixIds.length * H), (prefixIds.length + T) * H);
    row += T;
    prompts.push({ embeds, length });
    ids.push([...prefixIds, ...new Array<number>(T).fill(config.special.image), ...suffixIds]);
  }
  return { prompts, ids, visionMs };
}

/**
 * The tokenizer as the engine reads output: control tokens (pad, bos, eos, image, view separator)
 * dropped, the model's other special tokens kept, since grounding tags and table tags are
 * special tokens that belong in the Markdown.
 */
export function outputTokenizer(model: OcrModel): TextTokenizer {
  const { pad, bos, eos, image, viewSeparator } = model.config.special;
  const control = new Set([pad, bos, eos, image, viewSeparator]);
  const base = model.tokenizer;
  return {
    encode: (text) => base.encode(text),
    decode: (ids) =>
      base.decode(
        ids.filter((id) => !control.has(id)),
        true,
      ),
    tokenToId: (token) => base.tokenToId(token),
  };
}
