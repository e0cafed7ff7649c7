/**
 * A sentence-embedding model run in-process with onnxruntime (through `runtime/ort.ts`, the only
 * module that imports it). Texts are sorted by length before batching so each batch pads to
 * similar lengths, which is most of the speed on a CPU.
 */
import { join, resolve } from 'node:path';
import { ConfigurationError, InferenceError } from '../../core/errors.ts';
import type { Device, Tensor } from '../runtime/ort.ts';
import { DEVICES, OnnxSession, tensor } from '../runtime/ort.ts';
import { DEFAULT_MODEL_DIR, readEmbedModelConfig } from './config.ts';
import { pool } from './pooling.ts';
import { loadEmbeddingTokenizer } from './tokenize.ts';
import type { EmbedCallOptions, Embedder } from './types.ts';

export interface LocalEmbedderOptions {
  /** Folder with `folio-embed.json`, the ONNX file and `tokenizer.json`. @default the bundled all-MiniLM-L6-v2 (int8) */
  readonly modelDir?: string;
  /** Execution provider. @default 'cpu' */
  readonly device?: Device;
  /** Texts per forward pass. @default 32 */
  readonly batchSize?: number;
  /** Intra-op CPU threads; 0 lets onnxruntime decide. @default 0 */
  readonly threads?: number;
}

/**
 * Loads the embedding model once; `embed()` then runs batches of `batchSize` texts.
 *
 * @example
 * const embedder = await createLocalEmbedder({ batchSize: 64 });
 * const vectors = await embedder.embed(chunks.map((c) => c.text));
 * await embedder.close();
 */
export async function createLocalEmbedder(options: Readonly<LocalEmbedderOptions> = {}): Promise<Embedder> {
  const { modelDir = DEFAULT_MODEL_DIR, device = 'cpu', batchSize = 32, threads = 0 } = options;
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new ConfigurationError(
      'FOLIO_BAD_OPTION',
      `Expected \`batchSize\` to be an integer from 1 and up, got \`${String(batchSize)}\` (${typeof batchSize})`,
    );
  }
  if (!Number.isInteger(threads) || threads < 0) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`threads\` to be an integer from 0 and up, got \`${String(threads)}\` (${typeof threads})`);
  }
  if (!DEVICES.includes(device)) {
    throw new ConfigurationError('FOLIO_BAD_DEVICE', `Expected \`device\` to be one of ${DEVICES.join(', ')}, got \`${String(device)}\``);
  }
  const dir = resolve(modelDir);
  const config = await readEmbedModelConfig(dir);
  const tokenizer = await loadEmbeddingTokenizer(dir, config.maxTokens);
  const session = await OnnxSession.create(join(dir, config.onnx), { device, threads });
  if (!session.outputNames.includes(config.output)) {
    await session.release();
    throw new ConfigurationError(
      'FOLIO_EMBED_MODEL',
      `${join(dir, config.onnx)}: expected an output named \`${config.output}\`, the model has ${session.outputNames.join(', ')}`,
    );
  }
  let closed = false;

  const runBatch = async (texts: readonly string[]): Promise<Float32Array[]> => {
    const batch = tokenizer.batch(texts);
    const dims = [batch.rows, batch.length];
    const available: Record<string, Tensor> = {
      input_ids: tensor('int64', batch.inputIds, dims),
      attention_mask: tensor('int64', batch.attentionMask, dims),
      token_type_ids: tensor('int64', batch.tokenTypeIds, dims),
    };
    // Exported BERT graphs differ on whether they take token_type_ids; feed what the graph names.
    const feeds: Record<string, Tensor> = {};
    for (const name of session.inputNames) {
      const feed = available[name];
      if (feed) feeds[name] = feed;
    }
    const outputs = await session.run(feeds);
    try {
      const states = outputs[config.output];
      if (states?.dims.length !== 3 || states.dims[2] !== config.dims) {
        throw new InferenceError(
          'FOLIO_EMBED_OUTPUT',
          `${session.path}: expected \`${config.output}\` of shape [${batch.rows},${batch.length},${config.dims}], got [${states?.dims.join(',') ?? 'none'}]`,
          { meta: { path: session.path } },
        );
      }
      return pool({
        states: states.data as Float32Array,
        mask: batch.attentionMask,
        rows: batch.rows,
        length: batch.length,
        hidden: config.dims,
        pooling: config.pooling,
        normalize: config.normalize,
      });
    } finally {
      for (const output of Object.values(outputs)) output.dispose();
    }
  };

  return {
    model: config.name,
    dims: config.dims,
    maxTokens: config.maxTokens,
    countTokens: (text) => tokenizer.count(text),
    async embed(texts: readonly string[], callOptions: EmbedCallOptions = {}): Promise<Float32Array[]> {
      if (closed) throw new InferenceError('FOLIO_EMBED_CLOSED', `embedder \`${config.name}\` is closed`);
      const { signal } = callOptions;
      // Longest first: similar lengths share a batch, so little compute goes to padding.
      const order = texts
        .map((text, i) => ({ i, n: text.length }))
        .sort((a, b) => b.n - a.n)
        .map((x) => x.i);
      const result = new Array<Float32Array>(texts.length);
      for (let start = 0; start < order.length; start += batchSize) {
        signal?.throwIfAborted();
        const ids = order.slice(start, start + batchSize);
        const vectors = await runBatch(ids.map((i) => texts[i] as string));
        ids.forEach((i, j) => {
          result[i] = vectors[j] as Float32Array;
        });
      }
      return result;
    },
    async close() {
      if (closed) return;
      closed = true;
      await session.release();
    },
  };
}
