/**
 * The set-up the decoding tests share: running `generate` on the fake model and collecting its
 * events, and the tiny real model with its reference pages, opened once per `describe`.
 */

import type { PageImage } from '../../../inference/engine.ts';
import type { DecodeStats, GenerateOptions, PromptEmbeds } from '../../../inference/onnx/generate.ts';
import { generate } from '../../../inference/onnx/generate.ts';
import { loadPageImage } from '../../../inference/onnx/image-file.ts';
import type { LoadModelOptions, OcrModel } from '../../../inference/onnx/load.ts';
import { loadModel } from '../../../inference/onnx/load.ts';
import type { FakeModel } from './fake-model.ts';
import { MODEL_DIR, reference } from './fixture.ts';

/** Decode to the reference's budget through EOS, with no repetition guard: the PyTorch reference's rule. */
export const exact = { ignoreEos: true, repetition: false, maxTokens: reference.steps } as const;

export interface Collected {
  /** Ids of each page's `done` event. */
  readonly ids: number[][];
  /** The ids of each page's `tokens` events, concatenated. */
  readonly streamed: number[][];
  readonly stats: DecodeStats[];
}

/** Run `generate` over prompt embeddings and collect its events per page. */
export async function collect(model: Pick<OcrModel, 'forward' | 'layout'>, prompts: readonly PromptEmbeds[], options: GenerateOptions): Promise<Collected> {
  const ids: number[][] = prompts.map(() => []);
  const streamed: number[][] = prompts.map(() => []);
  const stats: DecodeStats[] = [];
  for await (const event of generate(model.forward, model.layout, prompts, options)) {
    if (event.type === 'tokens') streamed[event.index]!.push(...event.ids);
    else {
      ids[event.index] = [...event.ids];
      stats[event.index] = event.stats;
    }
  }
  return { ids, streamed, stats };
}

/** `collect` on the fake model, prompts given as token ids. */
export function runFake(model: FakeModel, prompts: readonly (readonly number[])[], options: GenerateOptions): Promise<Collected> {
  return collect(
    model,
    prompts.map((p) => model.prompt(p)),
    options,
  );
}

export interface TinyModel {
  model: OcrModel;
  /** The reference's pages, in its order. */
  pages: PageImage[];
}

/**
 * Open the tiny random model (one thread) and its reference pages before the `describe`'s tests,
 * release it after them; the fields are set once `before` has run.
 */
export function useTinyModel(options: Partial<LoadModelOptions> = {}): TinyModel {
  const tiny = {} as TinyModel;
  before(async () => {
    tiny.model = await loadModel({ modelDir: MODEL_DIR, threads: 1, ...options });
    tiny.pages = await Promise.all(reference.cases.map((c) => loadPageImage({ path: `${MODEL_DIR}${c.image}` })));
  });
  after(async () => {
    await tiny.model?.release();
  });
  return tiny;
}

/**
 * The logits of `tokens`, fed to a decoder in windows of the given sizes after the prompt, each
 * pass padded to at least `rows` rows: windows of 1 are greedy decoding's passes, longer ones a
 * verify pass's. `pass` runs one window (ids padded with 0, their positions) and returns the
 * logits of its first `w` rows, `[w, vocab]`.
 */
export async function windowedLogits(
  tokens: readonly number[],
  windows: readonly number[],
  rows: number,
  vocab: number,
  promptLength: number,
  pass: (ids: number[], positions: number[], w: number) => Promise<Float32Array>,
): Promise<Float32Array[]> {
  const logits: Float32Array[] = [];
  let done = 0;
  for (const w of windows) {
    const W = Math.max(w, rows);
    const ids = [...tokens.slice(done, done + w), ...new Array<number>(W - w).fill(0)];
    const out = await pass(
      ids,
      ids.map((_, j) => promptLength + done + j),
      w,
    );
    for (let j = 0; j < w; j++) logits.push(out.slice(j * vocab, (j + 1) * vocab));
    done += w;
  }
  return logits;
}
