/**
 * The model half of the local embedder: an onnxruntime session that turns encoded texts (token
 * ids) into pooled vectors, in passes planned by `batches.ts`. It runs on whichever thread opens
 * it: the caller's, or the embedder's own worker (`encoder-worker.ts`), since onnxruntime-node's
 * `run` holds the thread that calls it for the whole pass.
 */
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ConfigurationError, InferenceError } from '../../core/errors.ts';
import type { Device, Tensor } from '../runtime/ort.ts';
import { OnnxSession, tensor } from '../runtime/ort.ts';
import { planBatches } from './batches.ts';
import type { EmbedModelConfig } from './config.ts';
import { readEmbedModelConfig } from './config.ts';
import { pool } from './pooling.ts';
import { type EmbeddingTokenizer, loadEmbeddingTokenizer } from './tokenize.ts';

/** One forward pass as `onBatch` reports it. */
export interface EmbedBatchInfo {
  readonly rows: number;
  /** Padded length: the longest row. */
  readonly length: number;
  /** Real tokens (the mask's ones); `rows × length` minus this is padding. */
  readonly tokens: number;
  /** Building the padded tensors. */
  readonly padMs: number;
  /** onnxruntime's run. */
  readonly runMs: number;
  /** Pooling and normalisation. */
  readonly poolMs: number;
}

/** Settled options (validated by `createLocalEmbedder`); plain data, so they cross to a worker. */
export interface EncoderSettings {
  readonly modelDir: string;
  readonly device: Device;
  readonly batchSize: number;
  readonly batchTokens: number;
  readonly threads: number;
  readonly spinning: boolean;
}

export interface Encoder {
  readonly config: EmbedModelConfig;
  readonly tokenizer: EmbeddingTokenizer;
  /** One vector per encoded text, in order; `signal` is checked between passes. */
  run(encoded: readonly (readonly number[])[], signal?: AbortSignal): Promise<Float32Array[]>;
  release(): Promise<void>;
}

/** Loads the model's config, tokenizer and session. */
export async function openEncoder(settings: Readonly<EncoderSettings>, onBatch?: (info: EmbedBatchInfo) => void): Promise<Encoder> {
  const { device, batchSize, batchTokens, threads, spinning } = settings;
  const dir = resolve(settings.modelDir);
  const config = await readEmbedModelConfig(dir);
  const tokenizer = await loadEmbeddingTokenizer(dir, config.maxTokens);
  const session = await OnnxSession.create(join(dir, config.onnx), { device, threads, spinning });
  if (!session.outputNames.includes(config.output)) {
    await session.release();
    throw new ConfigurationError(
      'FOLIO_EMBED_MODEL',
      `${join(dir, config.onnx)}: expected an output named \`${config.output}\`, the model has ${session.outputNames.join(', ')}`,
    );
  }

  const runBatch = async (encoded: readonly (readonly number[])[]): Promise<Float32Array[]> => {
    const t0 = performance.now();
    const batch = tokenizer.pad(encoded);
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
    const t1 = performance.now();
    const outputs = await session.run(feeds);
    const t2 = performance.now();
    try {
      const states = outputs[config.output];
      if (states?.dims.length !== 3 || states.dims[2] !== config.dims) {
        throw new InferenceError(
          'FOLIO_EMBED_OUTPUT',
          `${session.path}: expected \`${config.output}\` of shape [${batch.rows},${batch.length},${config.dims}], got [${states?.dims.join(',') ?? 'none'}]`,
          { meta: { path: session.path } },
        );
      }
      const vectors = pool({
        states: states.data as Float32Array,
        mask: batch.attentionMask,
        rows: batch.rows,
        length: batch.length,
        hidden: config.dims,
        pooling: config.pooling,
        normalize: config.normalize,
      });
      if (onBatch) {
        const tokens = encoded.reduce((sum, ids) => sum + ids.length, 0);
        onBatch({ rows: batch.rows, length: batch.length, tokens, padMs: t1 - t0, runMs: t2 - t1, poolMs: performance.now() - t2 });
      }
      return vectors;
    } finally {
      for (const output of Object.values(outputs)) output.dispose();
    }
  };

  return {
    config,
    tokenizer,
    async run(encoded, signal) {
      const result = new Array<Float32Array>(encoded.length);
      for (const ids of planBatches({ lengths: encoded.map((e) => e.length), batchTokens, batchSize })) {
        signal?.throwIfAborted();
        const vectors = await runBatch(ids.map((i) => encoded[i]!));
        ids.forEach((i, j) => {
          result[i] = vectors[j] as Float32Array;
        });
      }
      return result;
    },
    release: () => session.release(),
  };
}
