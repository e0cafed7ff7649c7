/**
 * A sentence-embedding model run in-process with onnxruntime (through `runtime/ort.ts`, the only
 * module that imports it). Texts are encoded once, sorted by length and grouped into forward
 * passes by padded tokens (`batches.ts`): little compute goes to padding and the activations stay
 * small enough for the CPU's caches. With `worker: true` the passes run on a worker thread of
 * their own (`threaded-encoder.ts`) while this thread goes on.
 */
import { resolve } from 'node:path';
import { ConfigurationError, InferenceError } from '../../core/errors.ts';
import type { Device } from '../runtime/ort.ts';
import { DEVICES } from '../runtime/ort.ts';
import { DEFAULT_MODEL_DIR, readEmbedModelConfig } from './config.ts';
import type { EmbedBatchInfo, EncoderSettings } from './encoder.ts';
import { openEncoder } from './encoder.ts';
import { startThreadedEncoder } from './threaded-encoder.ts';
import { loadEmbeddingTokenizer } from './tokenize.ts';
import type { EmbedCallOptions, Embedder } from './types.ts';

export interface LocalEmbedderOptions {
  /** Folder with `folio-embed.json`, the ONNX file and `tokenizer.json`. @default the bundled all-MiniLM-L6-v2 (int8) */
  readonly modelDir?: string;
  /** Execution provider. @default 'cpu' */
  readonly device?: Device;
  /** Most texts per forward pass. @default 32 */
  readonly batchSize?: number;
  /**
   * Most padded tokens (rows × longest row) per forward pass; a text longer than this still runs,
   * alone. Small passes keep the activations in cache (see `batches.ts` for the measurement).
   * @default 512
   */
  readonly batchTokens?: number;
  /** Intra-op CPU threads; 0 lets onnxruntime decide (one per physical core). @default 0 */
  readonly threads?: number;
  /**
   * Let idle intra-op threads spin for work. Off by default: embedding shares the cores with
   * ingest's page workers and Elasticsearch, and spinning threads take the CPU they need. Measured
   * on the 2-core machine under load (bench/retrieval/embed-speed.ts): 2 threads spinning 9.2
   * chunks/s, not spinning 21.7 (both in passes of 512 tokens), at 16.7 against 29.3 chunks per
   * CPU-second.
   * @default false
   */
  readonly spinning?: boolean;
  /**
   * Run the model on a worker thread of its own, so the calling thread keeps working (chunking,
   * writing) during a pass; `ingest` does. @default false
   */
  readonly worker?: boolean;
  /** Hears each forward pass with its shape and timings (benchmarks). */
  readonly onBatch?: (batch: EmbedBatchInfo) => void;
}

/**
 * Loads the embedding model once; `embed()` then runs passes of at most `batchTokens` padded
 * tokens and `batchSize` texts.
 *
 * @example
 * const embedder = await createLocalEmbedder({ batchSize: 64 });
 * const vectors = await embedder.embed(chunks.map((c) => c.text));
 * await embedder.close();
 */
export async function createLocalEmbedder(options: Readonly<LocalEmbedderOptions> = {}): Promise<Embedder> {
  const { modelDir = DEFAULT_MODEL_DIR, device = 'cpu', batchSize = 32, batchTokens = 512, threads = 0, spinning = false, worker = false, onBatch } = options;
  for (const [name, value] of [
    ['batchSize', batchSize],
    ['batchTokens', batchTokens],
  ] as const) {
    if (!Number.isInteger(value) || value < 1) {
      throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`${name}\` to be an integer from 1 and up, got \`${String(value)}\` (${typeof value})`);
    }
  }
  if (!Number.isInteger(threads) || threads < 0) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`threads\` to be an integer from 0 and up, got \`${String(threads)}\` (${typeof threads})`);
  }
  if (!DEVICES.includes(device)) {
    throw new ConfigurationError('FOLIO_BAD_DEVICE', `Expected \`device\` to be one of ${DEVICES.join(', ')}, got \`${String(device)}\``);
  }
  const dir = resolve(modelDir);
  const settings: EncoderSettings = { modelDir: dir, device, batchSize, batchTokens, threads, spinning };
  const config = await readEmbedModelConfig(dir);
  // With a worker, this thread keeps a tokenizer of its own: the chunker counts tokens here, and
  // the ids it got then are what crosses to the worker.
  const [tokenizer, encoder] = worker
    ? await Promise.all([loadEmbeddingTokenizer(dir, config.maxTokens), startThreadedEncoder(settings, onBatch)])
    : await openEncoder(settings, onBatch).then((local) => [local.tokenizer, local] as const);
  let closed = false;

  return {
    model: config.name,
    dims: config.dims,
    maxTokens: config.maxTokens,
    countTokens: (text) => tokenizer.count(text),
    async embed(texts: readonly string[], callOptions: EmbedCallOptions = {}): Promise<Float32Array[]> {
      if (closed) throw new InferenceError('FOLIO_EMBED_CLOSED', `embedder \`${config.name}\` is closed`);
      const { signal } = callOptions;
      signal?.throwIfAborted();
      if (texts.length === 0) return [];
      return encoder.run(
        texts.map((text) => tokenizer.encode(text)),
        signal,
      );
    },
    async close() {
      if (closed) return;
      closed = true;
      await encoder.release();
    },
  };
}
