import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { reclaimHeap } from '../../server/reclaim.ts';

describe('reclaimHeap', () => {
  it('should collect what nothing holds any more, on every call', async () => {
    for (let round = 0; round < 2; round++) {
      let garbage: object | undefined = { rows: Array.from({ length: 1000 }, (_, i) => ({ i })) };
      const ref = new WeakRef(garbage);
      garbage = undefined;
      // A WeakRef keeps its target until the job that made it ends.
      await tick();
      reclaimHeap();
      assert.equal(ref.deref(), undefined, `round ${round + 1}`);
    }
  });
});
