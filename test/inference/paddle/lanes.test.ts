import assert from 'node:assert/strict';
import type { RecRun } from '../../../inference/paddle/lanes.ts';
import { createLanes } from '../../../inference/paddle/lanes.ts';
import { paddleModelPaths } from '../../../inference/paddle/models.ts';
import { recognizeLines } from '../../../inference/paddle/recognize.ts';

describe('createLanes', function () {
  this.timeout(120_000);

  it('should run the recogniser in a worker lane as in this thread, several runs at once', async () => {
    const lanes = await createLanes(paddleModelPaths().rec, 2);
    try {
      assert.equal(lanes.count, 2);
      const input = (): Float32Array => new Float32Array(3 * 48 * 64).map((_, i) => Math.sin(i) * 0.9);
      const outputs = await Promise.all([0, 1, 2, 3].map(() => lanes.run(input(), [1, 3, 48, 64])));
      for (const out of outputs) {
        assert.deepEqual(out.dims, [1, 8, 6625]);
        // The same input gives the same probabilities in either lane.
        for (let i = 0; i < out.probs.length; i += 997) assert.ok(Math.abs(out.probs[i]! - outputs[0]!.probs[i]!) < 1e-5);
      }
    } finally {
      await lanes.close();
    }
  });
});

describe('recognizeLines with several lanes', () => {
  it("should put every result back in its line's place whatever order the runs finish in", async () => {
    const image = { data: new Uint8Array(400 * 100 * 3).fill(255), width: 400, height: 100 };
    const lines = [30, 80, 50, 200, 120, 10].map((w, i) => ({ box: { cx: 200, cy: 50, w, h: 20, angle: 0 }, flip: false, marker: i }));
    // A recogniser that reads the batch's width back as a class id, finishing wide batches first.
    const run: RecRun = async (_data, dims) => {
      const [n = 0, , , w = 0] = dims;
      await new Promise((resolve) => setTimeout(resolve, 400 / w));
      const steps = 2;
      const classes = 400;
      const probs = new Float32Array(n * steps * classes);
      for (let k = 0; k < n; k++) {
        probs[k * steps * classes + w / 8] = 0.9;
        probs[(k * steps + 1) * classes] = 1;
      }
      return { probs, dims: [n, steps, classes] };
    };
    const dictionary = Array.from({ length: 400 }, (_, i) => (i === 0 ? '' : String(i)));
    const texts = await recognizeLines(run, image, lines, dictionary, { tighten: false, batchSize: 1, concurrency: 3 });
    // Each line's text is its own padded width in steps: 48·w/20 rounded up to 8, over 8.
    assert.deepEqual(
      texts.map((t) => Number(t.text)),
      lines.map(({ box }) => Math.ceil(Math.max(32, Math.ceil((48 * box.w) / 20)) / 8)),
    );
  });
});
