import assert from 'node:assert/strict';
import { splitAtGaps } from '../../../inference/paddle/split.ts';

/** White image with black bars at the given x ranges, rows 40–60. */
function bars(ranges: readonly [number, number][]): { data: Uint8Array; width: number; height: number } {
  const width = 600;
  const height = 100;
  const data = new Uint8Array(width * height * 3).fill(255);
  for (const [a, b] of ranges) for (let y = 40; y < 60; y++) for (let x = a; x < b; x++) data.fill(0, (y * width + x) * 3, (y * width + x) * 3 + 3);
  return { data, width, height };
}

describe('splitAtGaps', () => {
  const box = { cx: 300, cy: 50, w: 560, h: 40, angle: 0 };

  it('should cut a line at a gutter wider than the line is tall', () => {
    const pieces = splitAtGaps(
      bars([
        [30, 250],
        [350, 570],
      ]),
      box,
    );
    assert.equal(pieces.length, 2);
    assert.ok(pieces[0]!.cx + pieces[0]!.w / 2 < 300 && pieces[1]!.cx - pieces[1]!.w / 2 > 250, JSON.stringify(pieces));
  });

  it('should keep word spaces inside one line', () => {
    assert.equal(
      splitAtGaps(
        bars([
          [30, 250],
          [265, 570],
        ]),
        box,
      ).length,
      1,
    );
  });

  it('should leave tilted boxes alone', () => {
    assert.equal(
      splitAtGaps(
        bars([
          [30, 250],
          [350, 570],
        ]),
        { ...box, angle: 0.2 },
      ).length,
      1,
    );
  });
});
