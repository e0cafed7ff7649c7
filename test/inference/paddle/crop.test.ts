import assert from 'node:assert/strict';
import { cropInto, walkBox } from '../../../inference/paddle/crop.ts';
import { sample } from '../../../inference/paddle/raster.ts';

/** The crop as the readable reference writes it: walkBox visiting `sample` per channel. */
function reference(
  image: { data: Uint8Array; width: number; height: number },
  box: Parameters<typeof walkBox>[0],
  flip: boolean,
  width: number,
  height: number,
): Float32Array {
  const out = new Float32Array(3 * width * height);
  const plane = width * height;
  walkBox(box, flip, width, height, (u, v, x, y) => {
    out[v * width + u] = sample(image, x, y, 2) / 127.5 - 1;
    out[plane + v * width + u] = sample(image, x, y, 1) / 127.5 - 1;
    out[2 * plane + v * width + u] = sample(image, x, y, 0) / 127.5 - 1;
  });
  return out;
}

describe('cropInto', () => {
  const width = 97;
  const height = 61;
  let seed = 7;
  const data = new Uint8Array(width * height * 3).map(() => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % 256;
  });
  const image = { data, width, height };

  for (const [name, box, flip] of [
    ['a level box', { cx: 48, cy: 30, w: 60, h: 20, angle: 0 }, false],
    ['a skewed box read upside down', { cx: 40, cy: 28, w: 70, h: 18, angle: 0.2 }, true],
    ['a box hanging over the edge', { cx: 5, cy: 58, w: 40, h: 16, angle: -0.1 }, false],
  ] as const) {
    it(`should sample ${name} exactly like walkBox with sample`, () => {
      const out = new Float32Array(3 * 48 * 150);
      cropInto(out, 0, 150, 48, 150, image, box, flip);
      const expected = reference(image, box, flip, 150, 48);
      for (let i = 0; i < expected.length; i++) assert.ok(Math.abs(out[i]! - expected[i]!) < 1e-4, `value ${i}: ${out[i]} vs ${expected[i]}`);
    });
  }

  it('should leave the padding of a wider slot untouched', () => {
    const out = new Float32Array(3 * 48 * 200);
    cropInto(out, 0, 200, 48, 120, image, { cx: 48, cy: 30, w: 60, h: 20, angle: 0 }, false);
    for (let c = 0; c < 3; c++) for (let v = 0; v < 48; v++) for (let u = 120; u < 200; u++) assert.equal(out[c * 48 * 200 + v * 200 + u], 0);
  });
});
