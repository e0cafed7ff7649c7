/**
 * Embedding throughput: chunks per second through the local model on one device, with where the
 * time goes (tokenising, building the padded tensors, onnxruntime's run, pooling) and how much of
 * each pass was padding. On a machine with a GPU run `npx folio bench retrieval --devices
 * cpu,webgpu --throughput-only` (see bench/retrieval/index.ts); a device that is not available is
 * reported, not fatal.
 */
import { performance } from 'node:perf_hooks';
import { describeError } from '../../core/errors.ts';
import type { EmbedBatchInfo, Embedder } from '../../inference/embed/index.ts';
import { createLocalEmbedder, DEFAULT_MODEL_DIR, loadEmbeddingTokenizer } from '../../inference/embed/index.ts';
import type { Device } from '../../inference/index.ts';

export interface ThroughputOptions {
  readonly texts: readonly string[];
  /** @default 'cpu' */
  readonly device?: Device;
  /** Most texts per forward pass. @default the embedder's (32) */
  readonly batchSize?: number;
  /** Most padded tokens per forward pass. @default the embedder's */
  readonly batchTokens?: number;
  /** Intra-op threads (0: onnxruntime decides). @default the embedder's */
  readonly threads?: number;
  /** @default the embedder's */
  readonly spinning?: boolean;
  /** Model folder. @default the bundled model */
  readonly modelDir?: string;
  /** Passes over `texts` after one warm-up pass; the median pass counts. @default 3 */
  readonly passes?: number;
}

/** Milliseconds per chunk of one pass, by step. */
export interface ThroughputBreakdown {
  /** Encoding the texts from scratch (the tokenizer alone; ingest reuses the chunker's encoding). */
  readonly tokenizeMs: number;
  readonly padMs: number;
  readonly runMs: number;
  readonly poolMs: number;
  /** Padding's share of the tokens the model computed: 1 − real / (rows × length). */
  readonly padding: number;
  readonly batches: number;
}

export interface ThroughputResult {
  readonly device: Device;
  readonly batchSize: number;
  readonly batchTokens?: number;
  readonly threads?: number;
  readonly chunks: number;
  /** Median over passes; undefined when the device failed. */
  readonly chunksPerSecond?: number;
  /** Chunks per CPU-second of the process (every thread) in the median pass: steadier than wall time on a shared machine. */
  readonly chunksPerCpuSecond?: number;
  readonly breakdown?: ThroughputBreakdown;
  readonly loadMs?: number;
  readonly error?: string;
}

interface Pass {
  readonly rate: number;
  readonly cpuRate: number;
  readonly batches: readonly EmbedBatchInfo[];
}

/**
 * @example
 * const { chunksPerSecond, breakdown } = await measureThroughput({ texts, device: 'webgpu' });
 */
export async function measureThroughput(options: Readonly<ThroughputOptions>): Promise<ThroughputResult> {
  const { texts, device = 'cpu', batchSize, batchTokens, threads, spinning, modelDir, passes = 3 } = options;
  const base = {
    device,
    batchSize: batchSize ?? 32,
    chunks: texts.length,
    ...(batchTokens === undefined ? {} : { batchTokens }),
    ...(threads === undefined ? {} : { threads }),
  };
  const start = performance.now();
  let seen: EmbedBatchInfo[] = [];
  let embedder: Embedder;
  try {
    embedder = await createLocalEmbedder({
      device,
      onBatch: (info) => seen.push(info),
      ...(modelDir === undefined ? {} : { modelDir }),
      ...(batchSize === undefined ? {} : { batchSize }),
      ...(batchTokens === undefined ? {} : { batchTokens }),
      ...(threads === undefined ? {} : { threads }),
      ...(spinning === undefined ? {} : { spinning }),
    });
  } catch (error) {
    return { ...base, error: describeError(error) };
  }
  try {
    const loadMs = performance.now() - start;
    await embedder.embed(texts); // warm-up: kernels, allocator, WebGPU pipelines
    const runs: Pass[] = [];
    for (let i = 0; i < passes; i++) {
      seen = [];
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await embedder.embed(texts);
      const seconds = (performance.now() - t0) / 1000;
      const cpu = process.cpuUsage(cpu0);
      runs.push({ rate: texts.length / seconds, cpuRate: texts.length / ((cpu.user + cpu.system) / 1e6), batches: seen });
    }
    runs.sort((a, b) => a.rate - b.rate);
    const median = runs[Math.floor(runs.length / 2)]!;
    const tokenizeMs = await tokenizeTime(texts, modelDir ?? DEFAULT_MODEL_DIR, embedder.maxTokens);
    return {
      ...base,
      loadMs,
      chunksPerSecond: median.rate,
      chunksPerCpuSecond: median.cpuRate,
      breakdown: breakdown(median.batches, texts.length, tokenizeMs),
    };
  } catch (error) {
    return { ...base, error: describeError(error) };
  } finally {
    await embedder.close();
  }
}

/** Milliseconds per text to encode `texts` with a fresh tokenizer (no cache). */
async function tokenizeTime(texts: readonly string[], modelDir: string, maxTokens: number): Promise<number> {
  const tokenizer = await loadEmbeddingTokenizer(modelDir, maxTokens);
  for (const text of texts.slice(0, 8)) tokenizer.encode(text);
  const t0 = performance.now();
  for (const text of texts) tokenizer.encode(text);
  return (performance.now() - t0) / Math.max(1, texts.length);
}

function breakdown(batches: readonly EmbedBatchInfo[], chunks: number, tokenizeMs: number): ThroughputBreakdown {
  const sum = (pick: (b: EmbedBatchInfo) => number) => batches.reduce((total, b) => total + pick(b), 0);
  const per = (ms: number) => ms / Math.max(1, chunks);
  const computed = sum((b) => b.rows * b.length);
  return {
    tokenizeMs,
    padMs: per(sum((b) => b.padMs)),
    runMs: per(sum((b) => b.runMs)),
    poolMs: per(sum((b) => b.poolMs)),
    padding: computed === 0 ? 0 : 1 - sum((b) => b.tokens) / computed,
    batches: batches.length,
  };
}
