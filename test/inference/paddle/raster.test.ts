import assert from 'node:assert/strict';
import { resizeToChw, rotateRgb } from '../../../inference/paddle/raster.ts';

/** A `width × height` RGB image whose pixel (x, y) is [x, y, 7]. */
function coords(width: number, height: number): { data: Uint8Array; width: number; height: number } {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set([x, y, 7], (y * width + x) * 3);
  return { data, width, height };
}

function pixel(image: { data: Uint8Array; width: number }, x: number, y: number): number[] {
  return [...image.data.subarray((y * image.width + x) * 3, (y * image.width + x) * 3 + 3)];
}

describe('rotateRgb', () => {
  const image = coords(3, 2);

  it('should turn a quarter clockwise: the bottom-left pixel goes to the top-left', () => {
    const r = rotateRgb(image, 90);
    assert.deepEqual([r.width, r.height], [2, 3]);
    assert.deepEqual(pixel(r, 0, 0), [0, 1, 7]);
    assert.deepEqual(pixel(r, 1, 0), [0, 0, 7]);
    assert.deepEqual(pixel(r, 1, 2), [2, 0, 7]);
  });

  it('should turn half round and three quarters', () => {
    const half = rotateRgb(image, 180);
    assert.deepEqual(pixel(half, 0, 0), [2, 1, 7]);
    assert.deepEqual(pixel(half, 2, 1), [0, 0, 7]);
    const three = rotateRgb(image, 270);
    assert.deepEqual([three.width, three.height], [2, 3]);
    assert.deepEqual(pixel(three, 0, 0), [2, 0, 7]);
    assert.deepEqual(pixel(three, 1, 2), [0, 1, 7]);
    // Four quarter turns are the identity.
    assert.deepEqual(rotateRgb(rotateRgb(three, 90), 0).data, image.data);
  });
});

describe('resizeToChw', () => {
  it('should average each output pixel over its source footprint, in BGR planes', () => {
    const image = coords(4, 4);
    const out = resizeToChw(image, 2, 2, [0, 0, 0], [1, 1, 1]);
    // Output (1, 0) covers x 2–3, y 0–1: R mean 2.5, G mean 0.5, B 7.
    assert.ok(Math.abs(out[0 * 4 + 1]! - 7 / 255) < 1e-6);
    assert.ok(Math.abs(out[1 * 4 + 1]! - 0.5 / 255) < 1e-6);
    assert.ok(Math.abs(out[2 * 4 + 1]! - 2.5 / 255) < 1e-6);
  });

  it('should interpolate when scaling up', () => {
    const image = coords(2, 1);
    const out = resizeToChw(image, 4, 1, [0, 0, 0], [1, 1, 1]);
    const red = [...out.subarray(8, 12)].map((v) => Math.round(v * 255 * 100) / 100);
    assert.deepEqual(red, [0, 0.25, 0.75, 1]);
  });
});
