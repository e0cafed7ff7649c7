/**
 * The public decoding calls: {@link decode} for a batch of pages, {@link decodeStream} for one
 * page as text deltas. Both are greedy (`draftK: 0`) or speculative (`draftK ≥ 1`) and return the
 * same ids either way.
 */

import { InferenceError } from '../../core/errors.ts';
import type { PageImage } from '../engine.ts';
import { TextStreamer } from '../tokenizer/stream.ts';
import type { DecodeStats, GenerateOptions } from './generate.ts';
import { generate } from './generate.ts';
import type { OcrModel } from './load.ts';
import { encodePages, outputTokenizer } from './prompt.ts';
import type { RepetitionGuardOptions } from './stop.ts';

export interface DecodeOptions {
  /** Draft tokens per step; 0 is plain greedy decoding. @default the model's `draft_head.K` */
  readonly draftK?: number;
  /** Tokens per page, the stop token included. @default the model's `generation.max_new_tokens` */
  readonly maxTokens?: number;
  /** Decode through EOS to the budget (random test models never stop). @default false */
  readonly ignoreEos?: boolean;
  /** @default {} (on) */
  readonly repetition?: Readonly<RepetitionGuardOptions> | false;
  /** Bit-exact layout (greedy and speculative alike bit for bit at batch 1); see GenerateOptions. @default true */
  readonly exact?: boolean;
  /** Largest page side accepted, in pixels. @default 16384 */
  readonly maxImageSide?: number;
  /** Decode with the model's step graphs when it has them (`OcrModel.steps`); false: the contract graphs. @default true */
  readonly steps?: boolean;
  readonly signal?: AbortSignal;
}

export interface PageDecode {
  readonly ids: readonly number[];
  /** Markdown (control tokens dropped, grounding and table tags kept). */
  readonly text: string;
  readonly stats: DecodeStats & { readonly visionMs: number };
}

function generateOptions(model: OcrModel, options: Readonly<DecodeOptions>): GenerateOptions {
  const hasDraft = model.forward.mtp !== undefined || model.steps?.draft !== undefined;
  const {
    draftK = hasDraft ? model.config.draft.k : 0,
    maxTokens = model.config.maxNewTokens,
    ignoreEos = false,
    repetition = {},
    exact = true,
    steps = true,
    signal,
  } = options;
  return {
    eosId: ignoreEos ? -1 : model.config.special.eos,
    draftK,
    maxTokens,
    repetition,
    exact,
    signal,
    ...(steps && model.steps !== undefined ? { steps: model.steps } : {}),
  };
}

/**
 * Recognise pages in one batch.
 *
 * @example
 * const [page] = await decode(model, [image], { draftK: 3 });
 * console.log(page.text, page.stats.tau);
 */
export async function decode(model: OcrModel, pages: readonly PageImage[], options: Readonly<DecodeOptions> = {}): Promise<PageDecode[]> {
  const { prompts, visionMs } = await encodePages(model, pages, { maxImageSide: options.maxImageSide });
  const results: PageDecode[] = new Array(pages.length);
  const tokenizer = outputTokenizer(model);
  for await (const event of generate(model.forward, model.layout, prompts, generateOptions(model, options))) {
    if (event.type === 'done') {
      results[event.index] = { ids: event.ids, text: tokenizer.decode(event.ids), stats: { ...event.stats, visionMs: visionMs / pages.length } };
    }
  }
  return results;
}

/**
 * Recognise one page as a stream of text deltas; the generator's return value holds the ids and
 * stats.
 *
 * @example
 * for await (const delta of decodeStream(model, image)) process.stdout.write(delta);
 */
export async function* decodeStream(model: OcrModel, page: PageImage, options: Readonly<DecodeOptions> = {}): AsyncGenerator<string, PageDecode> {
  const { prompts, visionMs } = await encodePages(model, [page], { maxImageSide: options.maxImageSide });
  const tokenizer = outputTokenizer(model);
  const streamer = new TextStreamer(tokenizer);
  for await (const event of generate(model.forward, model.layout, prompts, generateOptions(model, options))) {
    if (event.type === 'tokens') {
      const delta = streamer.push(event.ids);
      if (delta !== '') yield delta;
    } else {
      const rest = streamer.flush();
      if (rest !== '') yield rest;
      return { ids: event.ids, text: tokenizer.decode(event.ids), stats: { ...event.stats, visionMs } };
    }
  }
  throw new InferenceError('FOLIO_DECODE_STATE', 'decoding ended without a result');
}
