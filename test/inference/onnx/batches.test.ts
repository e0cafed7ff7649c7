import assert from 'node:assert/strict';
import { inBatches } from '../../../inference/onnx/batches.ts';

describe('inBatches', () => {
  it('should halve the batch on out-of-memory and keep results in order', async () => {
    const seen: number[] = [];
    const result = await inBatches({
      items: [1, 2, 3, 4, 5, 6, 7, 8],
      batchSize: 8,
      run: async (batch) => {
        seen.push(batch.length);
        if (batch.length > 2) throw new Error('Failed to allocate memory for buffer (webgpu): out of memory');
        return batch.map((x) => x * 10);
      },
    });
    assert.deepEqual(result.results, [10, 20, 30, 40, 50, 60, 70, 80]);
    assert.deepEqual(seen, [8, 4, 2, 2, 2, 2]);
    assert.equal(result.retries, 2);
    assert.equal(result.finalBatchSize, 2);
  });

  it('should not retry other errors, nor out-of-memory at one page', async () => {
    await assert.rejects(
      inBatches({
        items: [1, 2],
        batchSize: 2,
        run: async () => {
          throw new Error('bad page');
        },
      }),
      /bad page/,
    );
    let calls = 0;
    await assert.rejects(
      inBatches({
        items: [1],
        batchSize: 4,
        run: async () => {
          calls++;
          throw new Error('CUDA out of memory');
        },
      }),
      /out of memory/,
    );
    assert.equal(calls, 1);
  });
});
