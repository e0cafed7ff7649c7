import assert from 'node:assert/strict';
import { capToPitch } from '../../../inference/paddle/pitch.ts';

describe('capToPitch', () => {
  it('should cap the boxes of tightly set lines at 1.1 times their pitch', () => {
    // Caption lines 27 px apart whose DB boxes are 42 px high.
    const boxes = [0, 1, 2].map((i) => ({ cx: 500, cy: 100 + 27 * i, w: 800, h: 42, angle: 0.01 }));
    const capped = capToPitch(boxes);
    for (const b of capped) assert.ok(Math.abs(b.h - 29.7) < 0.5, String(b.h));
    assert.deepEqual(
      capped.map((b) => [b.cx, b.cy, b.w]),
      boxes.map((b) => [b.cx, b.cy, b.w]),
    );
  });

  it('should leave alone lines with room, lone lines and neighbours that are not beside them', () => {
    const spaced = [0, 1].map((i) => ({ cx: 500, cy: 100 + 60 * i, w: 800, h: 42, angle: 0 }));
    assert.deepEqual(capToPitch(spaced), spaced);
    const lone = [{ cx: 500, cy: 100, w: 800, h: 42, angle: 0 }];
    assert.deepEqual(capToPitch(lone), lone);
    // Side by side in two columns, on the same row: not a line above or below.
    const columns = [
      { cx: 300, cy: 100, w: 400, h: 42, angle: 0 },
      { cx: 800, cy: 110, w: 400, h: 42, angle: 0 },
    ];
    assert.deepEqual(capToPitch(columns), columns);
  });
});
