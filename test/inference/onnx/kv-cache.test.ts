import assert from 'node:assert/strict';
import { KvCache } from '../../../inference/onnx/kv-cache.ts';
import { tensor } from '../../../inference/runtime/ort.ts';

const layers = [{ pastKey: 'pk', pastValue: 'pv', presentKey: 'k', presentValue: 'v' }];

/** A present tensor whose slot j of sequence b holds the value 100·b + j (head dim 1). */
function present(B: number, L: number, values?: (b: number, j: number) => number) {
  const data = new Float32Array(B * L);
  for (let b = 0; b < B; b++) for (let j = 0; j < L; j++) data[b * L + j] = values ? values(b, j) : 100 * b + j;
  return { k: tensor('float32', data, [B, 1, L, 1]), v: tensor('float32', data.slice(), [B, 1, L, 1]) };
}

function keys(cache: KvCache): number[][] {
  const t = cache.pastFeeds().pk!;
  const data = t.data as Float32Array;
  const rows: number[][] = [];
  for (let b = 0; b < cache.batch; b++) rows.push(Array.from({ length: cache.length }, (_, i) => (cache.isValid(b, i) ? data[b * cache.length + i]! : -1)));
  return rows;
}

describe('KvCache', () => {
  it('should take new slots, mask them and roll rejected ones back', () => {
    const cache = new KvCache({ batch: 2, layers, kvHeads: 1, headDim: 1 });
    cache.update(present(2, 3), new Uint8Array([1, 1, 1, 0, 1, 1]), 3);
    assert.deepEqual(keys(cache), [
      [0, 1, 2],
      [-1, 101, 102],
    ]);
    assert.deepEqual([...cache.attentionMask(new Uint8Array([1, 1, 1, 0]), 2)], [1, 1, 1, 1, 1, 0, 1, 1, 1, 0]);
    cache.update(present(2, 7), new Uint8Array(8).fill(1), 4);
    // Sequence 0 keeps 1 of 4 new slots, sequence 1 keeps 2: trailing unused slots go.
    cache.rollback([1, 2], 4);
    assert.equal(cache.length, 5);
    assert.deepEqual(keys(cache), [
      [0, 1, 2, 3, -1],
      [-1, 101, 102, 103, 104],
    ]);
  });

  it('should roll back to exactly the accepted slots at batch 1', () => {
    const cache = new KvCache({ batch: 1, layers, kvHeads: 1, headDim: 1 });
    cache.update(present(1, 5), new Uint8Array(5).fill(1), 5);
    cache.rollback([2], 4);
    assert.deepEqual(keys(cache), [[0, 1, 2]]);
  });

  it('should pack holes to the right, keeping order, and drop finished sequences', () => {
    const cache = new KvCache({ batch: 2, layers, kvHeads: 1, headDim: 1 });
    cache.update(present(2, 6), new Uint8Array([1, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1]), 6);
    assert.equal(cache.compact(0.5), false);
    assert.equal(cache.compact(0.1), true);
    assert.deepEqual(keys(cache), [
      [-1, -1, 0, 2, 4, 5],
      [100, 101, 102, 103, 104, 105],
    ]);
    cache.select([0]);
    assert.deepEqual(keys(cache), [[-1, -1, 0, 2, 4, 5]]);
  });

  it('should stack caches of different lengths right-aligned', () => {
    const a = new KvCache({ batch: 1, layers, kvHeads: 1, headDim: 1 });
    const b = new KvCache({ batch: 1, layers, kvHeads: 1, headDim: 1 });
    a.update(present(1, 2), new Uint8Array([1, 1]), 2);
    b.update(
      present(1, 4, (_, j) => 10 + j),
      new Uint8Array([1, 1, 1, 1]),
      4,
    );
    const s = KvCache.stack([a, b]);
    assert.deepEqual(keys(s), [
      [-1, -1, 0, 1],
      [10, 11, 12, 13],
    ]);
    s.dispose();
    assert.equal(s.length, 0);
  });
});
