import assert from 'node:assert/strict';
import { reskewBounds } from '../../../core/ocr-frame.ts';
import { deskewFrame, estimateSkew } from '../../../inference/paddle/index.ts';
import { splitAtGaps } from '../../../inference/paddle/split.ts';

const deg = (d: number): number => (d * Math.PI) / 180;

describe('estimateSkew', () => {
  it('should take the length-weighted median angle of the long lines', () => {
    const lines = [0.9, 1.0, 1.1, 1.05, 0.95].map((d, i) => ({ cx: 500, cy: 100 + 40 * i, w: 800, h: 30, angle: deg(d) }));
    // Short boxes (single words) and vertical text do not vote.
    lines.push({ cx: 100, cy: 50, w: 40, h: 30, angle: deg(-8) }, { cx: 900, cy: 500, w: 600, h: 30, angle: deg(88) });
    assert.ok(Math.abs(estimateSkew(lines) - deg(1)) < deg(0.06), String(estimateSkew(lines)));
  });

  it('should say 0 when fewer than two long lines tell', () => {
    assert.equal(
      estimateSkew([
        { cx: 0, cy: 0, w: 800, h: 30, angle: deg(2) },
        { cx: 0, cy: 50, w: 40, h: 30, angle: deg(2) },
      ]),
      0,
    );
  });
});

describe('deskewFrame', () => {
  it('should put the lines of a skewed paragraph on separate, ordered rows', () => {
    // Three 1000 px lines 40 px apart, tilted 2°: their axis-aligned bounds overlap by 35 px
    // vertically, in the deskewed frame they do not overlap at all.
    const skew = deg(2);
    const frame = deskewFrame(skew, 1200, 1600);
    const boxes = [0, 1, 2].map((i) => {
      const y = 400 + 40 * i;
      return { cx: 600 - (y - 800) * Math.sin(skew) + 0 * Math.cos(skew), cy: 800 + (y - 800) * Math.cos(skew), w: 1000, h: 30, angle: skew };
    });
    const bounds = boxes.map((b) => frame.bounds(b));
    for (let i = 1; i < bounds.length; i++) {
      assert.ok(bounds[i]![1] >= bounds[i - 1]![3] - 1, JSON.stringify(bounds));
      assert.ok(Math.abs(bounds[i]![0] - bounds[0]![0]) < 1, 'left edges line up');
    }
  });

  it('should map bounds back onto the page they came from', () => {
    const frame = deskewFrame(deg(1.5), 1000, 1400);
    const box = { cx: 300, cy: 200, w: 400, h: 30, angle: deg(1.5) };
    const [x1, y1, x2, y2] = reskewBounds(frame.bounds(box), deg(1.5), 1000, 1400);
    assert.ok(x1 < 300 && x2 > 300 && y1 < 200 && y2 > 200);
    assert.ok(Math.abs((x1 + x2) / 2 - 300) < 1 && Math.abs((y1 + y2) / 2 - 200) < 1, JSON.stringify([x1, y1, x2, y2]));
  });
});

describe('splitAtGaps on a tilted line', () => {
  it("should follow the line's slope and cut only at the real gutter", () => {
    // A 900 px line tilted 2° (it drifts 31 px over its length, more than its ink is high),
    // with one 80 px gutter in the middle.
    const width = 1000;
    const height = 200;
    const data = new Uint8Array(width * height * 3).fill(255);
    const angle = deg(2);
    for (let u = 0; u < 900; u++) {
      if (u >= 410 && u < 490) continue;
      const x = Math.round(50 + u * Math.cos(angle));
      const yc = 100 + (u - 450) * Math.sin(angle);
      for (let y = Math.round(yc - 8); y <= Math.round(yc + 8); y++) data.fill(0, (y * width + x) * 3, (y * width + x) * 3 + 3);
    }
    const pieces = splitAtGaps({ data, width, height }, { cx: 500, cy: 100, w: 920, h: 40, angle });
    assert.equal(pieces.length, 2, JSON.stringify(pieces));
    for (const p of pieces) assert.equal(p.angle, angle);
  });
});
