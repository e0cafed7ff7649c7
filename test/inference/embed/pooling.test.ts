import assert from 'node:assert/strict';
import { l2normalize, pool } from '../../../inference/embed/index.ts';

describe('pool', () => {
  // Two rows of three tokens, hidden size 2; row 1 has one padding token with a huge state.
  const states = new Float32Array([1, 0, 3, 0, 5, 4, /* row 1 */ 0, 2, 0, 4, 999, 999]);
  const mask = new BigInt64Array([1n, 1n, 1n, 1n, 1n, 0n]);

  it('should average real tokens only', () => {
    const [a, b] = pool({ states, mask, rows: 2, length: 3, hidden: 2, normalize: false });
    const close = (got: Float32Array, want: number[]) => want.forEach((w, i) => assert.ok(Math.abs(got[i]! - w) < 1e-6, `${Array.from(got)} vs ${want}`));
    close(a!, [3, 4 / 3]);
    close(b!, [0, 3]);
  });

  it('should take the first token for cls pooling and normalise to unit length', () => {
    const [a] = pool({ states, mask, rows: 2, length: 3, hidden: 2, pooling: 'cls' });
    assert.deepEqual(Array.from(a!), [1, 0]);
    const [, b] = pool({ states, mask, rows: 2, length: 3, hidden: 2 });
    assert.deepEqual(Array.from(b!), [0, 1]);
  });
});

describe('l2normalize', () => {
  it('should scale to unit length and leave a zero vector alone', () => {
    assert.deepEqual(Array.from(l2normalize(new Float32Array([3, 4]))), [0.6000000238418579, 0.800000011920929]);
    assert.deepEqual(Array.from(l2normalize(new Float32Array([0, 0]))), [0, 0]);
  });
});
