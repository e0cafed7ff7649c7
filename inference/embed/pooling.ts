/** Sentence vectors from per-token states, as sentence-transformers computes them. */
import type { Pooling } from './config.ts';

export interface PoolOptions {
  /** Token states `[rows, length, hidden]`, row-major. */
  readonly states: Float32Array;
  /** `[rows, length]`, 1 for real tokens. */
  readonly mask: BigInt64Array;
  readonly rows: number;
  readonly length: number;
  readonly hidden: number;
  /** @default 'mean' */
  readonly pooling?: Pooling;
  /** @default true */
  readonly normalize?: boolean;
}

/**
 * Mean over real tokens (padding excluded) or the first token, then L2 normalisation.
 *
 * @example
 * pool({ states, mask, rows: 2, length: 7, hidden: 384 }) // two Float32Array(384)
 */
export function pool(options: Readonly<PoolOptions>): Float32Array[] {
  const { states, mask, rows, length, hidden, pooling = 'mean', normalize = true } = options;
  const out: Float32Array[] = [];
  for (let row = 0; row < rows; row++) {
    const vector = new Float32Array(hidden);
    if (pooling === 'cls') {
      vector.set(states.subarray(row * length * hidden, row * length * hidden + hidden));
    } else {
      let count = 0;
      for (let t = 0; t < length; t++) {
        if (mask[row * length + t] === 0n) continue;
        count++;
        const base = (row * length + t) * hidden;
        for (let h = 0; h < hidden; h++) vector[h]! += states[base + h]!;
      }
      // sentence-transformers clamps the count to 1e-9; an all-padding row stays zero either way.
      const scale = 1 / Math.max(count, 1e-9);
      for (let h = 0; h < hidden; h++) vector[h]! *= scale;
    }
    if (normalize) l2normalize(vector);
    out.push(vector);
  }
  return out;
}

/** Scales `vector` to unit length in place (a zero vector stays zero). */
export function l2normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const x of vector) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm > 1e-12) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}
