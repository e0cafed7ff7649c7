import assert from 'node:assert/strict';
import { classifyLines, voteUpsideDown } from '../../../inference/paddle/classify.ts';
import type { OnnxSession } from '../../../inference/runtime/ort.ts';

/** A stand-in classifier that answers `answer(k)` for the k-th line it is asked about, counting them. */
function fakeClassifier(answer: (k: number) => number): { session: OnnxSession; asked: () => number } {
  let asked = 0;
  const session = {
    async run(feeds: Record<string, { dims: readonly number[] }>) {
      const n = feeds.x!.dims[0]!;
      const data = new Float32Array(2 * n);
      for (let i = 0; i < n; i++) {
        const p = answer(asked++);
        data[2 * i] = 1 - p;
        data[2 * i + 1] = p;
      }
      return { out: { data, dims: [n, 2] } };
    },
  };
  return { session: session as unknown as OnnxSession, asked: () => asked };
}

const image = { data: new Uint8Array(300 * 200 * 3).fill(255), width: 300, height: 200 };
// Lines short enough for the classifier's 4:1 input (40 px at 10 px high, up to 50 kept whole): one question each.
const boxes = Array.from({ length: 100 }, (_, i) => ({ cx: 150, cy: 1 + i * 2, w: 20 + i * 0.3, h: 10, angle: 0 }));

describe('voteUpsideDown', () => {
  it('should ask only the longest lines when they agree, leaving the rest NaN', async () => {
    const { session, asked } = fakeClassifier(() => 0.02);
    const p180 = await voteUpsideDown(session, image, boxes, 16);
    assert.equal(asked(), 16);
    // The 16 longest are the last 16 boxes.
    assert.ok(p180.slice(84).every((p) => Math.abs(p - 0.02) < 1e-6));
    assert.ok(p180.slice(0, 84).every((p) => Number.isNaN(p)));
  });

  it('should ask more lines, up to 64, when the sample is split', async () => {
    const { session, asked } = fakeClassifier((k) => (k % 2 === 0 ? 0.9 : 0.1));
    const p180 = await voteUpsideDown(session, image, boxes, 16);
    assert.equal(asked(), 64);
    assert.equal(p180.filter((p) => !Number.isNaN(p)).length, 64);
  });

  it('should ask every line of a short page or when sampling is off', async () => {
    const few = fakeClassifier(() => 0.5);
    assert.equal((await voteUpsideDown(few.session, image, boxes.slice(0, 10), 16)).length, 10);
    assert.equal(few.asked(), 10);
    const all = fakeClassifier(() => 0.5);
    await voteUpsideDown(all.session, image, boxes, 0);
    assert.equal(all.asked(), 100);
  });

  it('should read a long line in three unsqueezed pieces and average them', async () => {
    const { session, asked } = fakeClassifier((k) => [0.9, 0.6, 0.3][k]!);
    const [p] = await classifyLines(session, image, [{ cx: 150, cy: 100, w: 280, h: 10, angle: 0 }]);
    assert.equal(asked(), 3);
    assert.ok(Math.abs(p! - 0.6) < 1e-6, String(p));
  });
});
