import assert from 'node:assert/strict';
import { tightenBox } from '../../../inference/paddle/tighten.ts';

/**
 * A white page with "text" in the given rectangles (x0, y0, x1, y1): vertical strokes three
 * pixels wide every five, as letters leave paper between them; `rule` rectangles are solid.
 */
function page(
  rects: readonly (readonly [number, number, number, number])[],
  rules: readonly (readonly [number, number, number, number])[] = [],
  width = 400,
  height = 200,
): { data: Uint8Array; width: number; height: number } {
  const data = new Uint8Array(width * height * 3).fill(255);
  for (const [x0, y0, x1, y1] of rects)
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if ((x - x0) % 5 < 3) data.fill(20, (y * width + x) * 3, (y * width + x) * 3 + 3);
  for (const [x0, y0, x1, y1] of rules) for (let y = y0; y < y1; y++) data.fill(20, (y * width + x0) * 3, (y * width + x1) * 3);
  return { data, width, height };
}

describe('tightenBox', () => {
  it('should cut a loose box down to the ink plus the margins, centred on the ink', () => {
    // "Text" 20 px tall (rows 90–110) in a DB box 60 px tall centred lower down.
    const image = page([[100, 90, 300, 110]]);
    const box = tightenBox(image, { cx: 200, cy: 105, w: 260, h: 60, angle: 0 }, { margin: 0.4, sideMargin: 0.25 });
    assert.ok(Math.abs(box.h - 20 * 1.8) < 1.5, `h ${box.h}`);
    assert.ok(Math.abs(box.cy - 100) < 1.5, `cy ${box.cy}`);
    assert.ok(Math.abs(box.w - (198 + 2 * 0.25 * 20)) < 2, `w ${box.w}`);
    assert.ok(Math.abs(box.cx - 199) < 1.5, `cx ${box.cx}`);
  });

  it('should never grow a box that is already tight', () => {
    const image = page([[100, 90, 300, 110]]);
    const given = { cx: 200, cy: 100, w: 210, h: 24, angle: 0 };
    const box = tightenBox(image, given);
    assert.ok(box.h <= given.h && box.w <= given.w, JSON.stringify(box));
  });

  it('should leave out a neighbour line beyond a blank row and a table rule', () => {
    // Own text rows 90–110; the line above reaches rows 70–76; a rule across at row 118.
    const image = page(
      [
        [100, 90, 300, 110],
        [100, 70, 300, 76],
      ],
      [[60, 118, 340, 120]],
    );
    const box = tightenBox(image, { cx: 200, cy: 97, w: 280, h: 56, angle: 0 }, { margin: 0.4 });
    assert.ok(Math.abs(box.cy - 100) < 2 && Math.abs(box.h - 36) < 2, JSON.stringify(box));
  });

  it('should keep the box of a blank region, a speck or a tiny line', () => {
    const blank = { cx: 200, cy: 100, w: 200, h: 40, angle: 0 };
    assert.deepEqual(tightenBox(page([]), blank), blank);
    assert.deepEqual(tightenBox(page([[150, 100, 152, 101]]), blank), blank);
    const tiny = { cx: 10, cy: 10, w: 3, h: 4, angle: 0 };
    assert.deepEqual(tightenBox(page([[9, 9, 11, 11]]), tiny), tiny);
  });

  it('should move along a skewed box its own axes', () => {
    const angle = 0.1;
    const image = page([]);
    // Ink band drawn along the skewed axis, 16 px tall, offset 10 px "up" from the box centre.
    const { data, width } = image;
    for (let u = -100; u <= 100; u++) {
      for (let v = -18; v <= -2; v++) {
        const x = Math.round(200 + u * Math.cos(angle) - v * Math.sin(angle));
        const y = Math.round(100 + u * Math.sin(angle) + v * Math.cos(angle));
        if ((u + 100) % 5 < 3) data.fill(20, (y * width + x) * 3, (y * width + x) * 3 + 3);
      }
    }
    const box = tightenBox(image, { cx: 200, cy: 100, w: 220, h: 56, angle }, { margin: 0.4 });
    assert.equal(box.angle, angle);
    // The centre moved about 10 px against the box's normal (−sin, cos).
    assert.ok(Math.abs(box.cx - (200 + 10 * Math.sin(angle))) < 2.5 && Math.abs(box.cy - (100 - 10 * Math.cos(angle))) < 2.5, JSON.stringify(box));
    assert.ok(box.h < 35 && box.h > 25, `h ${box.h}`);
  });
});
