/**
 * Pages in batches, with the one retry that pays on a GPU: out of memory → halve the batch and try
 * that batch again, down to one page. Any other error, or out of memory at one page, is final.
 */

/** Messages onnxruntime's providers give when memory runs out. */
export const OUT_OF_MEMORY = /out of memory|\bOOM\b|bad_alloc|failed to allocate|allocation failed/i;

export interface InBatchesOptions<P, R> {
  readonly items: readonly P[];
  /** Items per call at first. */
  readonly batchSize: number;
  /** Decode one batch; resolves to one result per item, in order. */
  readonly run: (batch: readonly P[]) => Promise<R[]>;
  /** @default a test of the message against {@link OUT_OF_MEMORY} */
  readonly isOutOfMemory?: (error: unknown) => boolean;
}

export interface InBatchesResult<R> {
  readonly results: R[];
  /** Batches retried smaller. */
  readonly retries: number;
  /** The batch size that ran last. */
  readonly finalBatchSize: number;
}

/**
 * Run `items` through `run` in batches, shrinking the batch on out-of-memory.
 *
 * @example
 * const { results, retries } = await inBatches({ items: pages, batchSize: 8, run: (b) => decode(model, b) });
 */
export async function inBatches<P, R>(options: Readonly<InBatchesOptions<P, R>>): Promise<InBatchesResult<R>> {
  const { items, batchSize, run, isOutOfMemory = (e: unknown) => OUT_OF_MEMORY.test(e instanceof Error ? e.message : String(e)) } = options;
  let size = Math.max(1, Math.min(batchSize, items.length));
  let retries = 0;
  const results: R[] = [];
  let next = 0;
  while (next < items.length) {
    const batch = items.slice(next, next + size);
    try {
      results.push(...(await run(batch)));
      next += batch.length;
    } catch (error) {
      if (size === 1 || !isOutOfMemory(error)) throw error;
      size = Math.max(1, Math.floor(size / 2));
      retries++;
    }
  }
  return { results, retries, finalBatchSize: size };
}
