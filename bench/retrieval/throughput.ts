/**
 * Embedding throughput: chunks per second through the local model on one device. On a machine
 * with a GPU run `npx folio bench retrieval --devices cpu,webgpu --throughput-only` (see
 * bench/retrieval/index.ts); a device that is not available is reported, not fatal.
 */
import { performance } from 'node:perf_hooks';
import { describeError } from '../../core/errors.ts';
import { createLocalEmbedder } from '../../inference/embed/index.ts';
import type { Device } from '../../inference/index.ts';

export interface ThroughputOptions {
  readonly texts: readonly string[];
  /** @default 'cpu' */
  readonly device?: Device;
  /** @default 32 */
  readonly batchSize?: number;
  /** Passes over `texts` after one warm-up pass; the median pass counts. @default 3 */
  readonly passes?: number;
}

export interface ThroughputResult {
  readonly device: Device;
  readonly batchSize: number;
  readonly chunks: number;
  /** Median over passes; undefined when the device failed. */
  readonly chunksPerSecond?: number;
  readonly loadMs?: number;
  readonly error?: string;
}

/**
 * @example
 * const { chunksPerSecond } = await measureThroughput({ texts, device: 'webgpu' });
 */
export async function measureThroughput(options: Readonly<ThroughputOptions>): Promise<ThroughputResult> {
  const { texts, device = 'cpu', batchSize = 32, passes = 3 } = options;
  const base = { device, batchSize, chunks: texts.length };
  const start = performance.now();
  let embedder;
  try {
    embedder = await createLocalEmbedder({ device, batchSize });
  } catch (error) {
    return { ...base, error: describeError(error) };
  }
  try {
    const loadMs = performance.now() - start;
    await embedder.embed(texts); // warm-up: kernels, allocator, WebGPU pipelines
    const rates: number[] = [];
    for (let i = 0; i < passes; i++) {
      const t0 = performance.now();
      await embedder.embed(texts);
      rates.push(texts.length / ((performance.now() - t0) / 1000));
    }
    rates.sort((a, b) => a - b);
    return { ...base, loadMs, chunksPerSecond: rates[Math.floor(rates.length / 2)]! };
  } catch (error) {
    return { ...base, error: describeError(error) };
  } finally {
    await embedder.close();
  }
}
