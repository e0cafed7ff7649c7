import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MATH_VIEWS, renderEqual } from '../../../bench/math/index.ts';
import type { PageImage } from '../../../inference/engine.ts';
import { loadPageImage } from '../../../inference/onnx/image-file.ts';
import type { FormulaReader } from '../../../pipeline/formula/index.ts';
import { checkReading, createFormulaReader, formulaView, inkContrast } from '../../../pipeline/formula/index.ts';

const DIR = join(MATH_VIEWS, 'synthetic');

/** The ink of a grey view, cut out with a few pixels of paper: what a layout box around a formula gives. */
function cropInk(page: PageImage, pad = 3): PageImage {
  const { data, width, height } = page;
  let x0 = width,
    y0 = height,
    x1 = -1,
    y1 = -1;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (data[(y * width + x) * page.channels]! < 128) {
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
  x0 = Math.max(0, x0 - pad);
  y0 = Math.max(0, y0 - pad);
  x1 = Math.min(width - 1, x1 + pad);
  y1 = Math.min(height - 1, y1 + pad);
  const w = x1 - x0 + 1,
    h = y1 - y0 + 1;
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out[y * w + x] = data[((y + y0) * width + x + x0) * page.channels]!;
  return { ...page, data: out, width: w, height: h, channels: 1 };
}

function grey(width: number, height: number, pixel: (i: number) => number): PageImage {
  return { docId: 'test', source: 'test', pageNumber: 1, width, height, channels: 1, data: Uint8Array.from({ length: width * height }, (_, i) => pixel(i)) };
}

describe('pipeline formula', () => {
  describe('formulaView', () => {
    it('should set a small crop on paper so the engine does not enlarge it (or at most maxUpscale times)', () => {
      const crop = grey(30, 20, (i) => (i % 7 === 0 ? 0 : 200));
      const view = formulaView(crop);
      assert.deepEqual([view.width, view.height], [512, 128]);
      const enlarged = formulaView(crop, { maxUpscale: 1.5 });
      assert.deepEqual([enlarged.width, enlarged.height], [Math.ceil(512 / 1.5), Math.ceil(128 / 1.5)]);
      assert.equal(view.data[0], 200, 'paper taken from the crop');
      assert.equal(view.data[4 * view.width + 4], 0, 'crop placed after the margin');
    });

    it('should leave a crop that fills the view unpadded but for the margin', () => {
      const view = formulaView(grey(600, 100, () => 255));
      assert.deepEqual([view.width, view.height], [608, 108]);
    });

    it('should measure ink against the paper', () => {
      assert.equal(inkContrast(grey(40, 10, () => 240)), 0);
      assert.equal(inkContrast(grey(40, 10, (i) => (i === 200 ? 40 : 240))), 200);
    });
  });

  describe('checkReading', () => {
    it('should refuse invalid LaTeX, a cut-off reading, an over-long one and a low-confidence one', () => {
      const ok = { stop: 'eos' as const, minMargin: 3 };
      assert.deepEqual(checkReading('\\frac{a}{b}', ok, 100), { ok: true });
      assert.match((checkReading('\\frac{a}{', ok, 100) as { reason: string }).reason, /KaTeX/);
      assert.match((checkReading('x^2', { stop: 'max-tokens', minMargin: 3 }, 100) as { reason: string }).reason, /max-tokens/);
      assert.match((checkReading('x+y+z+w', ok, 4) as { reason: string }).reason, /characters/);
      assert.match((checkReading('x^2', { stop: 'eos', minMargin: 0.2 }, 100) as { reason: string }).reason, /confidence/);
      assert.equal(checkReading('   ', ok, 100).ok, false);
    });
  });

  describe('createFormulaReader', function () {
    this.timeout(120_000);
    let reader: FormulaReader;
    before(async () => {
      reader = await createFormulaReader({ threads: 1 });
    });
    after(async () => {
      await reader.close();
    });

    it('should read cropped formulas to $$…$$ that KaTeX renders like the truth, recording engine and confidence', async () => {
      const rows = (await readFile(join(DIR, 'truth.tsv'), 'utf8'))
        .split('\n')
        .slice(1, 13)
        .map((l) => l.split('\t'));
      const crops = await Promise.all(
        rows.map(async ([file]) => ({ image: cropInk(await loadPageImage({ path: join(DIR, file!), pageNumber: 1 })), display: true, fallback: 'TEXT ROUTE' })),
      );
      const readings = await reader.read(crops);
      const kept = readings.filter((r) => r.engine === 'folio-ocr-math');
      assert.ok(kept.length >= 2, `kept ${kept.length}: ${readings.map((r) => r.reason ?? r.latex).join(' | ')}`);
      for (const r of readings) {
        assert.ok(Number.isFinite(r.confidence));
        if (r.engine === 'folio-ocr-math') assert.equal(r.markdown, `$$${r.latex}$$`);
        else assert.equal(r.markdown, 'TEXT ROUTE');
      }
      const right = readings.filter((r, i) => r.latex !== undefined && renderEqual(rows[i]![2]!, r.latex)).length;
      assert.ok(right >= 2, `${right} kept readings render like the truth`);
    });

    it("should keep the text route's result for noise, a blank crop and an upside-down formula", async () => {
      let seed = 11;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
      const page = await loadPageImage({ path: join(DIR, '001.png'), pageNumber: 1 });
      const formula = cropInk(page);
      const upsideDown = { ...formula, data: formula.data.slice().reverse() };
      const crops = [grey(300, 60, () => Math.floor(random() * 256)), grey(200, 50, () => 250), upsideDown].map((image) => ({
        image,
        display: false,
        fallback: 'kept',
      }));
      const readings = await reader.read(crops);
      for (const [i, r] of readings.entries()) {
        assert.equal(r.engine, 'text', `crop ${i} read as ${r.latex}`);
        assert.equal(r.markdown, 'kept');
        assert.ok(r.reason);
      }
    });
  });
});
