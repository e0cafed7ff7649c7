import assert from 'node:assert/strict';
import { InferenceError } from '../../../core/errors.ts';
import { KvBuffers } from '../../../inference/onnx/kv-buffer.ts';

const layers = [{ pastKey: 'pk', pastValue: 'pv', presentKey: 'k', presentValue: 'v' }];

const slots = (cache: KvBuffers, name = 'pk') => Array.from(cache.feeds()[name]!.data as Float32Array);

/** Rows [B, kv, steps, 1] holding 1000·b + 100·h + 10·s + (1 for values). */
function rows(B: number, kv: number, steps: number): Float32Array[] {
  return [0, 1].map((v) =>
    Float32Array.from({ length: B * kv * steps }, (_, i) => 1000 * Math.floor(i / (kv * steps)) + 100 * (Math.floor(i / steps) % kv) + 10 * (i % steps) + v),
  );
}

describe('KvBuffers', () => {
  it('should feed the buffers as past_key_values.*, one tensor per name, reused', () => {
    const cache = new KvBuffers({ batch: 2, capacity: 3, layers, kvHeads: 2, headDim: 1 });
    const { pk, pv } = cache.feeds();
    assert.deepEqual(pk!.dims, [2, 2, 3, 1]);
    assert.notEqual(pk!.data, pv!.data);
    assert.equal(cache.feeds().pk, pk);
  });

  it('should put written rows at their positions, per sequence and head', () => {
    const cache = new KvBuffers({ batch: 2, capacity: 4, layers, kvHeads: 2, headDim: 1 });
    cache.write(rows(2, 2, 2), 2, [1, 2, 0, 1]);
    assert.deepEqual(slots(cache), [0, 0, 10, 0, 0, 100, 110, 0, 1000, 1010, 0, 0, 1100, 1110, 0, 0]);
    assert.deepEqual(slots(cache, 'pv').slice(0, 4), [0, 1, 11, 0]);
    // Positions that are not a run go row by row; `first` offsets the sequences.
    cache.write(rows(1, 2, 2), 2, [3, 0], 1);
    assert.deepEqual(slots(cache).slice(8), [10, 1010, 0, 0, 110, 1110, 0, 100]);
  });

  it('should refuse rows of the wrong size or past the capacity', () => {
    const cache = new KvBuffers({ batch: 1, capacity: 2, layers, kvHeads: 1, headDim: 1 });
    assert.throws(() => cache.write(rows(1, 2, 1), 1, [0]), /expected \[1,1,1,1\]/);
    assert.throws(
      () => cache.write(rows(1, 1, 2), 2, [1, 2]),
      (e: unknown) => e instanceof InferenceError && e.code === 'FOLIO_DECODE_STATE' && /position 2 is outside the cache's 2 slots/.test(e.message),
    );
  });

  it('should keep the sequences selected, in order, and build tensors for the smaller batch', async () => {
    const cache = new KvBuffers({ batch: 3, capacity: 2, layers, kvHeads: 1, headDim: 1 });
    cache.write(rows(3, 1, 2), 2, [0, 1, 0, 1, 0, 1]);
    await cache.select([0, 2]);
    assert.equal(cache.batch, 2);
    assert.deepEqual(cache.feeds().pk!.dims, [2, 1, 2, 1]);
    assert.deepEqual(slots(cache), [0, 10, 2000, 2010]);
    await cache.select([1]);
    assert.deepEqual(slots(cache, 'pv'), [2001, 2011]);
  });

  it('should refuse a capacity below one slot', () => {
    assert.throws(() => new KvBuffers({ batch: 1, capacity: 0, layers, kvHeads: 1, headDim: 1 }), /`capacity`/);
  });
});
