/**
 * Groups encoded texts into forward passes by padded size (rows × longest row) rather than by
 * count. On a CPU the encoder's cost per token rises with the batch's activations once they leave
 * the cache: measured on the 2-core machine with the bundled int8 MiniLM (bench/retrieval/
 * embed-speed.ts), 32 rows of ~200 tokens ran at less than half the tokens per second of one row.
 */

export interface PlanBatchesOptions {
  /** Token count of each text (after truncation), in input order. */
  readonly lengths: readonly number[];
  /** Most padded tokens (rows × longest row) in one batch; a longer single text still gets a batch of its own. */
  readonly batchTokens: number;
  /** Most rows in one batch. */
  readonly batchSize: number;
}

/**
 * Input indices per batch, longest texts first so batch mates have similar lengths and little
 * compute goes to padding.
 *
 * @example
 * planBatches({ lengths: [10, 200, 12], batchTokens: 256, batchSize: 32 }) // [[1], [2, 0]]
 */
export function planBatches(options: Readonly<PlanBatchesOptions>): number[][] {
  const { lengths, batchTokens, batchSize } = options;
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[b]! - lengths[a]! || a - b);
  const batches: number[][] = [];
  let current: number[] = [];
  let longest = 0;
  for (const i of order) {
    // Sorted longest first: the batch's first row sets its padded length.
    if (current.length > 0 && (current.length >= batchSize || (current.length + 1) * longest > batchTokens)) {
      batches.push(current);
      current = [];
    }
    if (current.length === 0) longest = lengths[i]!;
    current.push(i);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
