import assert from 'node:assert/strict';
import { ctcPath } from '../../../inference/paddle/ctc.ts';
import type { RecRun } from '../../../inference/paddle/lanes.ts';
import { batches, ctcGreedy, readLines, recWidth } from '../../../inference/paddle/recognize.ts';

describe('ctcGreedy', () => {
  it('should merge repeats, drop blanks and keep a letter repeated across a blank', () => {
    const dictionary = ['', 'a', 'b', ' '];
    const steps = [1, 1, 0, 1, 2, 2, 0, 3, 2];
    const probs = new Float32Array(steps.length * 4);
    steps.forEach((k, t) => {
      probs[t * 4 + k] = 0.9;
    });
    const line = ctcGreedy(probs, 0, steps.length, 4, dictionary);
    assert.equal(line.text, 'aab b');
    assert.ok(Math.abs(line.confidence - 0.9) < 1e-6);
  });
});

describe('ctcPath', () => {
  it('should give each character the step it was first read at', () => {
    const steps = [0, 1, 1, 0, 0, 2, 0, 1];
    const probs = new Float32Array(steps.length * 3);
    steps.forEach((k, t) => {
      probs[t * 3 + k] = 0.8;
    });
    assert.deepEqual(
      ctcPath(probs, 0, steps.length, 3).map((c) => [c.id, c.step]),
      [
        [1, 1],
        [2, 5],
        [1, 7],
      ],
    );
  });
});

describe('batches', () => {
  it('should run wide lines alone and let short lines share a run within the column budget', () => {
    const widths = [40, 60, 100, 150, 700, 900, 160];
    const order = widths.map((_, i) => i).sort((a, b) => widths[a]! - widths[b]!);
    const runs = batches(order, widths, 8, 640);
    for (const run of runs) {
      const widest = Math.max(...run.map((i) => widths[i]!));
      assert.ok(run.length === 1 || run.length * widest <= 640, JSON.stringify(run));
    }
    assert.deepEqual(
      runs.map((r) => r.map((i) => widths[i])),
      [[40, 60, 100, 150], [160], [700], [900]],
    );
    assert.deepEqual(
      batches(order, widths, 2, 10_000).map((r) => r.length),
      [2, 2, 2, 1],
    );
  });
});

describe('recWidth', () => {
  it('should keep the aspect ratio at 48 px high and cap very long lines', () => {
    assert.equal(recWidth({ cx: 0, cy: 0, w: 200, h: 24, angle: 0 }), 400);
    assert.equal(recWidth({ cx: 0, cy: 0, w: 20_000, h: 10, angle: 0 }), 3200);
  });
});

describe('readLines', () => {
  // A page whose left half is ink and right half paper; line A reads left to right as is, line B
  // is the same strip but must be read turned round to be understood.
  const width = 200;
  const height = 40;
  const data = new Uint8Array(width * height * 3).fill(255);
  for (let y = 0; y < height; y++) data.fill(0, y * width * 3, (y * width + 100) * 3);
  const image = { data, width, height };
  const box = { cx: 100, cy: 20, w: 200, h: 40, angle: 0 };
  const dictionary = ['', 'a', 'b'];

  /** A recogniser that reads "a" confidently when a crop starts with ink, and "b" unsure otherwise. */
  function fakeRecogniser(inkFirst: boolean): RecRun {
    return async (data, dims) => {
      const [n = 0, , h = 0, w = 0] = dims;
      const steps = w / 8;
      const probs = new Float32Array(n * steps * 3);
      for (let k = 0; k < n; k++) {
        const startsDark = data[k * 3 * h * w + (h >> 1) * w + 1]! < 0;
        const good = startsDark === inkFirst;
        probs[k * steps * 3 + (good ? 1 : 2)] = good ? 0.99 : 0.6;
        for (let t = 1; t < steps; t++) probs[(k * steps + t) * 3] = 1;
      }
      return { probs, dims: [n, steps, 3] };
    };
  }

  it('should keep the upright reading of a line the classifier wrongly calls upside down', async () => {
    const [line] = await readLines(fakeRecogniser(true), image, [{ box, p180: 0.995 }], dictionary, { tighten: false });
    assert.equal(line?.text, 'a');
  });

  it('should read a line that really is upside down the other way round', async () => {
    const [line] = await readLines(fakeRecogniser(false), image, [{ box, p180: 0.995 }], dictionary, { tighten: false });
    assert.equal(line?.text, 'a');
  });

  it('should not read a line twice when the classifier is not sure', async () => {
    const [line] = await readLines(fakeRecogniser(false), image, [{ box, p180: 0.9 }], dictionary, { tighten: false });
    assert.equal(line?.text, 'b');
  });
});
