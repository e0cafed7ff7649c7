/**
 * Picking from logits. Greedy decoding takes the first index of the largest value, as
 * `torch.argmax` does, so ties resolve the same way as in the PyTorch reference.
 */

/**
 * Index of the largest of `logits[row·vocab … (row+1)·vocab)`.
 *
 * @example
 * argmaxRow(new Float32Array([0, 3, 3, 1]), 0, 4) // 1
 */
export function argmaxRow(logits: Float32Array, row: number, vocab: number): number {
  const base = row * vocab;
  let best = 0;
  let max = -Infinity;
  for (let i = 0; i < vocab; i++) {
    const v = logits[base + i]!;
    if (v > max) {
      max = v;
      best = i;
    }
  }
  return best;
}

/** Largest minus second largest logit of a row: how close the pick was to flipping. */
export function marginRow(logits: Float32Array, row: number, vocab: number): number {
  const base = row * vocab;
  let first = -Infinity;
  let second = -Infinity;
  for (let i = 0; i < vocab; i++) {
    const v = logits[base + i]!;
    if (v > first) {
      second = first;
      first = v;
    } else if (v > second) second = v;
  }
  return first - second;
}
