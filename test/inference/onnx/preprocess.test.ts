import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { InferenceError } from '../../../core/errors.ts';
import type { PageImage } from '../../../inference/engine.ts';
import { parseModelConfig } from '../../../inference/onnx/config.ts';
import { loadPageImage } from '../../../inference/onnx/image-file.ts';
import { preprocessPage, tileGrid } from '../../../inference/onnx/preprocess.ts';
import { MODEL_DIR, reference } from './fixture.ts';

const config = parseModelConfig(JSON.parse(await readFile(`${MODEL_DIR}folio-model.json`, 'utf8')), 'folio-model.json');
const page = (over: Partial<PageImage>): PageImage => ({
  docId: 'd',
  source: 'scan.pdf',
  pageNumber: 2,
  data: new Uint8Array(4),
  width: 2,
  height: 2,
  channels: 1,
  ...over,
});

describe('preprocessPage', () => {
  it('should give the pixels PyTorch was given (grey page at view size, RGB page resized)', async () => {
    for (const c of reference.cases) {
      const views = preprocessPage(await loadPageImage({ path: `${MODEL_DIR}${c.image}` }), { image: config.image });
      assert.equal(views.count, 1);
      const sum = views.data.reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum - c.pixel_values_sum) < 1e-3, `${c.image}: ${sum} vs ${c.pixel_values_sum}`);
    }
  });

  it('should normalise with the fp32 rounding of numpy, bit for bit', () => {
    // Bits of numpy's (v.astype(float32) / 255.0 - 0.5) / 0.5 for these grey values.
    const expected: Record<number, number> = { 1: 3212705278, 37: 3207968182, 128: 998277376, 200: 1058115986, 254: 1065221630 };
    const values = Object.keys(expected).map(Number);
    const data = new Uint8Array(256 * 64).fill(255);
    data.set(values);
    const views = preprocessPage(page({ width: 256, height: 64, data }), { image: config.image });
    const bits = new Uint32Array(views.data.buffer, 0, values.length);
    assert.deepEqual(
      [...bits],
      values.map((v) => expected[v]),
    );
  });

  it('should composite transparent pixels on white', () => {
    const views = preprocessPage(page({ width: 1, height: 1, channels: 4, data: new Uint8Array([0, 0, 0, 0]) }), { image: config.image });
    assert.equal(views.data[0], 1);
    assert.ok(views.data.every((v) => v === 1));
  });

  it('should name the page of a zero-size image', () => {
    assert.throws(
      () => preprocessPage(page({ width: 0, height: 10, data: new Uint8Array(0) }), { image: config.image }),
      (e: unknown) => e instanceof InferenceError && e.code === 'FOLIO_PAGE_EMPTY' && e.message.startsWith('page 2 of scan.pdf: the image is 0×10 px'),
    );
  });

  it('should name the page of an image 20,000 px tall', () => {
    const tall = page({ width: 10, height: 20000, data: new Uint8Array(200000) });
    assert.throws(
      () => preprocessPage(tall, { image: config.image }),
      (e: unknown) =>
        e instanceof InferenceError && e.code === 'FOLIO_PAGE_TOO_LARGE' && e.message.includes('page 2 of scan.pdf') && e.message.includes('10×20000'),
    );
    assert.equal(preprocessPage(tall, { image: config.image, maxSide: 20000 }).count, 1);
  });

  it('should refuse pixels that do not match the size', () => {
    assert.throws(
      () => preprocessPage(page({ width: 3, height: 3 }), { image: config.image }),
      /page 2 of scan\.pdf: expected 3×3×1 = 9 bytes of pixels, got 4/,
    );
  });
});

describe('tileGrid', () => {
  it('should follow the aspect ratio of the page', () => {
    assert.deepEqual(tileGrid(2000, 500, { width: 640, height: 640 }, 9), { cols: 4, rows: 1 });
    // Equal ratios: the larger grid wins once the page is big enough for it (DeepSeek-OCR's rule).
    assert.deepEqual(tileGrid(600, 1200, { width: 640, height: 640 }, 9), { cols: 1, rows: 2 });
    assert.deepEqual(tileGrid(1000, 2000, { width: 640, height: 640 }, 9), { cols: 2, rows: 4 });
    assert.deepEqual(tileGrid(1280, 1280, { width: 640, height: 640 }, 9), { cols: 2, rows: 2 });
  });
});

describe('loadPageImage', () => {
  it('should name a file that is not an image', async () => {
    await assert.rejects(
      loadPageImage({ path: `${MODEL_DIR}folio-model.json` }),
      (e: Error & { code?: string }) => e.code === 'FOLIO_IMAGE_UNREADABLE' && e.message.startsWith(`${MODEL_DIR}folio-model.json: cannot read the image`),
    );
  });
});
