import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { characterErrorRate } from '../../../bench/ocr/cer.ts';
import type { Degradation } from '../../../bench/scans/index.ts';
import { degradePage, seededRandom } from '../../../bench/scans/index.ts';
import { InferenceError } from '../../../core/errors.ts';
import type { OcrEngine, PageImage } from '../../../inference/engine.ts';
import { createPaddleEngine } from '../../../inference/paddle/index.ts';
import { withLayout } from '../../../pipeline/layout/index.ts';
import { OCR_SCANS, renderFirstPage } from '../../support/pages.ts';

/** The scanned test page as grey pixels. */
async function greyPage(): Promise<{ data: Uint8Array; width: number; height: number }> {
  const page = await renderFirstPage('ocr_test.pdf');
  const { data, info } = await sharp(page.data, { raw: { width: page.width, height: page.height, channels: page.channels } })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** A JPEG back to a one-channel page image. */
async function decode(jpeg: Uint8Array, name: string): Promise<PageImage> {
  const { data, info } = await sharp(jpeg).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { docId: name, source: `${name}.jpg`, pageNumber: 1, data, width: info.width, height: info.height, channels: 1 };
}

async function degraded(d: Partial<Degradation>, name: string, crop?: number): Promise<PageImage> {
  const grey = await greyPage();
  const height = crop === undefined ? grey.height : Math.round(grey.height * crop);
  const random = seededRandom(`test/${name}`);
  const scan = await degradePage(
    grey.data.subarray(0, grey.width * height),
    grey.width,
    height,
    { skewDeg: 0, blurSigma: 0.6, noiseSigma: 15, jpegQuality: 70, turn: 0, ...d },
    random,
  );
  return decode(scan.jpeg, name);
}

/** Either Markdown or an InferenceError naming the page: never another error, never a hang. */
async function readsOrFailsClearly(engine: OcrEngine, page: PageImage): Promise<string | InferenceError> {
  try {
    const [result] = await engine.recognize([page]);
    assert.equal(typeof result?.markdown, 'string');
    return result!.markdown;
  } catch (error) {
    assert.ok(error instanceof InferenceError, String(error));
    assert.ok(error.message.includes(page.source), error.message);
    return error;
  }
}

describe('paddle on degraded scans', function () {
  this.timeout(300_000);
  let engine: OcrEngine;
  let expected: string;

  before(async () => {
    engine = withLayout(await createPaddleEngine({ threads: 2 }));
    expected = await readFile(`${OCR_SCANS}/ocr_test.expected.md`, 'utf8');
  });
  after(async () => engine.close());

  it('should read a page skewed 1.8°, blurred, noised and saved as JPEG in order', async () => {
    const [result] = await engine.recognize([await degraded({ skewDeg: 1.8, noiseSigma: 18 }, 'skewed')]);
    const cer = characterErrorRate(result!.markdown, expected);
    assert.ok(cer < 0.05, `CER ${cer.toFixed(3)}: ${result!.markdown}`);
    assert.ok(Math.abs((result!.stats.skewDeg ?? 0) + 1.8) < 0.4, `skew ${result!.stats.skewDeg}`);
  });

  for (const turn of [90, 180, 270] as const) {
    it(`should turn a skewed, noisy page put in ${turn}° the wrong way upright`, async () => {
      const [result] = await engine.recognize([await degraded({ skewDeg: -1.3, turn }, `turned-${turn}`)]);
      assert.equal(result!.stats.rotation, (360 - turn) % 360);
      const cer = characterErrorRate(result!.markdown, expected);
      assert.ok(cer < 0.08, `CER ${cer.toFixed(3)}: ${result!.markdown}`);
    });
  }

  it('should read or clearly fail a page skewed 45°', async () => {
    const out = await readsOrFailsClearly(engine, await degraded({ skewDeg: 45 }, 'skew-45'));
    assert.ok(out instanceof InferenceError || typeof out === 'string');
  });

  it('should read or clearly fail an upside-down page with two lines of text', async () => {
    const out = await readsOrFailsClearly(engine, await degraded({ turn: 180 }, 'little-text', 0.12));
    assert.ok(out instanceof InferenceError || typeof out === 'string');
  });

  it('should come back from a page of pure noise with little or no text', async () => {
    const random = seededRandom('noise');
    const width = 1700;
    const height = 2200;
    const data = new Uint8Array(width * height).map(() => Math.max(0, Math.min(255, Math.round(128 + 60 * random.gaussian()))));
    const out = await readsOrFailsClearly(engine, { docId: 'noise', source: 'noise.png', pageNumber: 1, data, width, height, channels: 1 });
    if (typeof out === 'string') assert.ok(out.replace(/<\|ref\|>.*\n/g, '').length < 2000, out.slice(0, 500));
  });

  it('should refuse a 30,000 × 30,000 page before allocating for it, naming the page', async () => {
    const side = 30_000;
    const page: PageImage = { docId: 'huge', source: 'huge.png', pageNumber: 2, data: new Uint8Array(side * side), width: side, height: side, channels: 1 };
    await assert.rejects(
      engine.recognize([page]),
      (e: unknown) => e instanceof InferenceError && e.code === 'FOLIO_OCR_IMAGE_TOO_LARGE' && /huge\.png page 2/.test(e.message),
    );
  });
});
