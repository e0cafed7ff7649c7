import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { characterErrorRate } from '../../../bench/ocr/cer.ts';
import { ConfigurationError, InferenceError } from '../../../core/errors.ts';
import type { OcrEngine, PageImage } from '../../../inference/engine.ts';
import { createPaddleEngine, paddleModelPaths } from '../../../inference/paddle/index.ts';
import { layoutOcrResult, withLayout } from '../../../pipeline/layout/index.ts';
import { OCR_SCANS, renderFirstPage } from '../../support/pages.ts';

function plain(width: number, height: number, value: number): PageImage {
  return { docId: 'd', source: 'synthetic.png', pageNumber: 3, data: new Uint8Array(width * height).fill(value), width, height, channels: 1 };
}

describe('createPaddleEngine', function () {
  this.timeout(240_000);
  let raw: OcrEngine;
  let engine: OcrEngine;
  let expected: string;

  before(async () => {
    raw = await createPaddleEngine({ threads: 2 });
    engine = withLayout(raw);
    expected = await readFile(`${OCR_SCANS}/ocr_test.expected.md`, 'utf8');
  });
  after(async () => engine.close());

  it('should reject bad options naming the option', async () => {
    await assert.rejects(createPaddleEngine({ batchSize: 0 }), (e: unknown) => e instanceof ConfigurationError && /`batchSize`.*`0`/.test(e.message));
    await assert.rejects(createPaddleEngine({ threads: -1 }), (e: unknown) => e instanceof ConfigurationError && /`threads`/.test(e.message));
  });

  it('should reject a recogniser model given without its dictionary, or with one that does not fit it', async () => {
    await assert.rejects(
      createPaddleEngine({ recModel: { onnx: paddleModelPaths().rec } as never }),
      (e: unknown) => e instanceof ConfigurationError && /`recModel`/.test(e.message),
    );
    const dir = await mkdtemp(join(tmpdir(), 'folio-rec-'));
    try {
      // Three characters for a model of 6,625 classes: every line would decode to the wrong letters
      // (the mistake this check is for: a PP-OCRv5 or v6 model given PP-OCRv4's dictionary, or back).
      const keys = join(dir, 'keys.txt');
      await writeFile(keys, 'a\nb\nc\n');
      await assert.rejects(
        createPaddleEngine({ threads: 1, recModel: { onnx: paddleModelPaths().rec, keys } }),
        (e: unknown) => e instanceof ConfigurationError && /6625 classes but .* gives 5/.test(e.message),
      );
      // The shipped pair, given explicitly, is accepted.
      const engine = await createPaddleEngine({ threads: 1, recModel: { onnx: paddleModelPaths().rec, keys: paddleModelPaths().keys } });
      await engine.close();
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  it('should read the scanned test page with a low character error rate and grounding tags', async () => {
    const [result] = await engine.recognize([await renderFirstPage('ocr_test.pdf')]);
    assert.ok(result);
    assert.equal(result.engine, 'paddle');
    const cer = characterErrorRate(result.markdown, expected);
    assert.ok(cer < 0.03, `CER ${cer.toFixed(3)}: ${result.markdown}`);
    const tags = [...result.markdown.matchAll(/^<\|ref\|>(\w+)<\|\/ref\|><\|det\|>\[\[(\d+), (\d+), (\d+), (\d+)\]\]<\|\/det\|>$/gm)];
    assert.ok(tags.length >= 1, result.markdown);
    for (const tag of tags) {
      const [x1, y1, x2, y2] = tag.slice(2).map(Number) as [number, number, number, number];
      assert.ok(x1 < x2 && y1 < y2 && x2 <= 999 && y2 <= 999, tag[0]);
    }
    assert.equal(result.stats.rotation, 0);
    // Each stage reports its time, and the recogniser its work.
    for (const stage of ['detPreMs', 'detRunMs', 'dbMs', 'clsMs', 'cropMs', 'recRunMs', 'decodeMs', 'layoutMs'])
      assert.ok((result.stats[stage] ?? -1) >= 0, stage);
    assert.ok((result.stats.recColumns ?? 0) > 0 && (result.stats.recRuns ?? 0) > 0);
  });

  it('should hand back a positioned page as plain data, laid out by the pipeline alike in any thread', async () => {
    // Turned a quarter: the frame must say so, and the layout map the boxes back onto the page as given.
    const page = await renderFirstPage('ocr_test.pdf');
    const turned: PageImage = { ...page, ...turnedClockwise(page) };
    const [read] = await raw.recognize([turned]);
    assert.ok(read?.positioned);
    assert.equal(read.markdown, '', 'the engine lays nothing out');
    assert.equal(read.positioned.frame.rotation, 270);
    assert.deepEqual([read.positioned.frame.imageWidth, read.positioned.frame.imageHeight], [turned.width, turned.height]);
    assert.ok(read.positioned.lines.length >= 3);
    // What crosses a worker thread is a structured clone: it must lay out to the same page.
    const here = layoutOcrResult(read, 1);
    const there = layoutOcrResult(structuredClone(read), 1);
    assert.equal(there.markdown, here.markdown);
    assert.ok(characterErrorRate(here.markdown, expected) < 0.05, here.markdown);
    // The page reads across the turned image's height: every grounding box is taller than wide.
    const tags = [...here.markdown.matchAll(/<\|det\|>\[\[(\d+), (\d+), (\d+), (\d+)\]\]/g)].map((m) => m.slice(1).map(Number));
    const long = tags.filter(([x1, y1, x2, y2]) => (y2! - y1!) * turned.height > 4 * (x2! - x1!) * turned.width);
    assert.ok(long.length >= 1, JSON.stringify(tags));
    assert.equal(layoutOcrResult(here, 1), here, 'laid out once, a result is left as it is');
  });

  it('should read a line printed upside down on an upright page', async () => {
    const page = await renderFirstPage('ocr_test.pdf');
    // Turn the band of the second line ("JSON and Markdown in an easy self contained") round.
    const data = new Uint8Array(page.data);
    const c = page.channels;
    const [x0, x1] = [Math.round(0.109 * page.width), Math.round(0.862 * page.width)];
    const [y0, y1] = [Math.round(0.121 * page.height), Math.round(0.152 * page.height)];
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const from = ((y0 + y1 - 1 - y) * page.width + (x0 + x1 - 1 - x)) * c;
        data.set(page.data.subarray(from, from + c), (y * page.width + x) * c);
      }
    }
    const [result] = await engine.recognize([{ ...page, data }]);
    assert.ok(result);
    assert.equal(result.stats.rotation, 0);
    assert.ok(characterErrorRate(result.markdown, expected) < 0.03, result.markdown);
  });

  for (const name of ['ocr_test_rotated_90.pdf', 'ocr_test_rotated_180.pdf', 'ocr_test_rotated_270.pdf']) {
    it(`should turn ${name} upright before reading it`, async () => {
      const [result] = await engine.recognize([await renderFirstPage(name)]);
      assert.ok(result);
      const cer = characterErrorRate(result.markdown, expected);
      assert.ok(cer < 0.03, `CER ${cer.toFixed(3)}: ${result.markdown}`);
      // These scans have no /Rotate: the pixels themselves are turned, so the engine must turn them back.
      assert.ok([90, 180, 270].includes(result.stats.rotation ?? -1), `rotation ${result.stats.rotation}`);
    });
  }

  it('should read nothing, and not fail, on images of one pixel or one stripe', async () => {
    const dot: PageImage = { ...plain(1, 1, 128) };
    const speck: PageImage = { ...plain(3, 2, 255), data: new Uint8Array([0, 255, 255, 255, 0, 255]) };
    const stripe: PageImage = { ...plain(6, 3000, 255) };
    stripe.data.fill(0, 0, 6 * 40);
    for (const page of [dot, speck, stripe]) {
      const [result] = await engine.recognize([page]);
      assert.equal(result?.markdown.trim(), '', `${page.width}×${page.height}`);
    }
  });

  it('should return empty Markdown for a white page', async () => {
    const [result] = await engine.recognize([plain(200, 300, 255)]);
    assert.equal(result?.markdown, '');
  });

  it('should reject an all-black page with an error naming the page', async () => {
    await assert.rejects(
      engine.recognize([plain(200, 300, 0)]),
      (e: unknown) => e instanceof InferenceError && e.code === 'FOLIO_OCR_BLANK_IMAGE' && /synthetic\.png page 3/.test(e.message),
    );
  });

  it('should reject an image whose data is shorter than its size says', async () => {
    const bad: PageImage = { ...plain(10, 10, 255), width: 100 };
    await assert.rejects(engine.recognize([bad]), (e: unknown) => e instanceof InferenceError && e.code === 'FOLIO_OCR_BAD_IMAGE');
  });
});

/** The page turned a quarter clockwise (its text then runs top to bottom). */
function turnedClockwise(page: PageImage): Pick<PageImage, 'data' | 'width' | 'height'> {
  const { width, height, channels: c } = page;
  const data = new Uint8Array(page.data.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) for (let k = 0; k < c; k++) data[(x * height + (height - 1 - y)) * c + k] = page.data[(y * width + x) * c + k]!;
  return { data, width: height, height: width };
}
