import assert from 'node:assert/strict';
import { findUprightLines, paddleModelPaths } from '../../../inference/paddle/index.ts';
import { toRgb } from '../../../inference/paddle/raster.ts';
import { OnnxSession } from '../../../inference/runtime/ort.ts';
import { renderFirstPage } from '../../support/pages.ts';

describe('findUprightLines second opinion', function () {
  this.timeout(120_000);
  let det: OnnxSession;
  let cls: OnnxSession;
  before(async () => {
    const paths = paddleModelPaths();
    det = await OnnxSession.create(paths.det, { threads: 2, spinning: false });
    cls = await OnnxSession.create(paths.cls, { threads: 2, spinning: false });
  });
  after(async () => {
    await det.release();
    await cls.release();
  });

  it('should ask `verify` about an unclear vote with the longest lines, and follow its answer', async () => {
    const page = toRgb(await renderFirstPage('ocr_test.pdf'));
    let asked = 0;
    const run = (answer: number) =>
      findUprightLines({ det, cls }, page, {
        // Every vote counts as unclear here, so the answer decides.
        unclear: [-1, 2],
        verify: async (image, boxes) => {
          asked++;
          assert.equal(image, page);
          assert.ok(boxes.length >= 1 && boxes.every((b, i) => i === 0 || b.w <= boxes[i - 1]!.w));
          return answer;
        },
      });
    assert.equal((await run(-0.2)).rotation, 0);
    assert.equal((await run(0.2)).rotation, 180);
    assert.equal(asked, 2);
  });

  it('should not ask when the vote is clear', async () => {
    const page = toRgb(await renderFirstPage('ocr_test.pdf'));
    const found = await findUprightLines({ det, cls }, page, {
      verify: async () => {
        throw new Error('asked');
      },
    });
    assert.equal(found.rotation, 0);
  });
});
