import assert from 'node:assert/strict';
import sharp from 'sharp';
import { headlineFigures } from '../../bench/report/figures.ts';
import { degradePage, drawDegradation, jpegPdf, scorePage, seededRandom, textProblem } from '../../bench/scans/index.ts';
import { openPdf } from '../../pipeline/pdf/index.ts';
import { renderPdfPage } from '../../pipeline/render/index.ts';

/** A white 400×300 grey page with a black bar across the middle. */
function page(): Uint8Array {
  const data = new Uint8Array(400 * 300).fill(255);
  for (let y = 140; y < 160; y++) data.fill(0, y * 400 + 50, y * 400 + 350);
  return data;
}

describe('scan degrader', function () {
  this.timeout(30_000);

  it('should draw the same degradation and the same pixels from the same seed, others from another', async () => {
    const a = seededRandom('s/doc.pdf#1');
    const b = seededRandom('s/doc.pdf#1');
    const da = drawDegradation(a);
    assert.deepEqual(da, drawDegradation(b));
    assert.ok(Math.abs(da.skewDeg) <= 2 && da.noiseSigma >= 10 && da.noiseSigma <= 20 && da.jpegQuality >= 65 && da.jpegQuality <= 75);
    const one = await degradePage(page(), 400, 300, da, a);
    const two = await degradePage(page(), 400, 300, da, b);
    assert.deepEqual(one.jpeg, two.jpeg);
    const other = seededRandom('s/doc.pdf#2');
    assert.notDeepEqual((await degradePage(page(), 400, 300, da, other)).jpeg, one.jpeg);
  });

  it('should turn about a quarter of the pages', () => {
    const turned = Array.from({ length: 400 }, (_, i) => drawDegradation(seededRandom(`t${i}`)).turn).filter((t) => t !== 0).length;
    assert.ok(turned > 60 && turned < 140, String(turned));
  });

  it('should skew, noise and turn the page it is given', async () => {
    const d = { skewDeg: 2, blurSigma: 0.6, noiseSigma: 15, jpegQuality: 70, turn: 90 as const };
    const out = await degradePage(page(), 400, 300, d, seededRandom('x'));
    assert.deepEqual([out.width, out.height], [300, 400]);
    const { data } = await sharp(out.jpeg).greyscale().raw().toBuffer({ resolveWithObject: true });
    // The bar is now vertical near x = 150; the paper is noisy, not flat white.
    const column = (x: number): number => {
      let s = 0;
      for (let y = 100; y < 300; y++) s += data[y * 300 + x]!;
      return s / 200;
    };
    assert.ok(column(150) < 100 && column(60) > 200, `${column(150)} ${column(60)}`);
    const paper = Array.from({ length: 200 }, (_, i) => data[10 * 300 + 20 + i]!);
    assert.ok(new Set(paper).size > 10);
  });

  it('should wrap the JPEG in an image-only PDF at the scan resolution', async () => {
    const out = await degradePage(page(), 400, 300, { skewDeg: 0, blurSigma: 0.5, noiseSigma: 10, jpegQuality: 70, turn: 0 }, seededRandom('y'));
    const bytes = jpegPdf(out.jpeg, out.width, out.height, 200);
    const pdf = await openPdf(bytes, { source: 'scan.pdf' });
    try {
      assert.equal(pdf.numPages, 1);
      const image = await renderPdfPage(await pdf.page(1), { source: 'scan.pdf', docId: 'scan', pageNumber: 1, dpi: 200 });
      assert.ok(Math.abs(image.width - 400) <= 1 && Math.abs(image.height - 300) <= 1, `${image.width}×${image.height}`);
      // PDFium draws the JPEG as its pixels: one grey component, as the PDF declares (a three-component
      // JPEG under DeviceGray came out smeared across the page).
      assert.equal((await sharp(out.jpeg).metadata()).channels, 1);
      const decoded = await sharp(out.jpeg).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
      const grey = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
        .greyscale()
        .resize(out.width, out.height, { fit: 'fill' })
        .raw()
        .toBuffer();
      let diff = 0;
      for (let i = 0; i < grey.length; i++) diff += Math.abs(grey[i]! - decoded.data[i]!);
      assert.ok(diff / grey.length < 8, `rendered page differs from the JPEG by ${(diff / grey.length).toFixed(1)} grey levels on average`);
    } finally {
      await pdf.close();
    }
  });
});

describe('scan truth and scores', () => {
  it('should keep Latin text of real words and say why it drops the rest', () => {
    const prose = 'The quick brown fox jumps over the lazy dog and keeps running through the field. '.repeat(6);
    assert.equal(textProblem(prose), undefined);
    assert.match(textProblem('short text') ?? '', /too little/);
    assert.match(textProblem('مرحبا بالعالم '.repeat(40)) ?? '', /Latin/);
    assert.match(textProblem('Xkcd Brmph Tsktsk Qwrt Pfft Hmm '.repeat(20)) ?? '', /words/);
  });

  it('should tell reading-order errors (high recall) from missing text (low recall)', () => {
    const truth = 'alpha beta gamma delta epsilon zeta eta theta';
    const reordered = scorePage('epsilon zeta eta theta alpha beta gamma delta', truth);
    const missing = scorePage('alpha beta', truth);
    assert.equal(reordered.wordRecall, 1);
    assert.ok(reordered.cer > 0.3);
    assert.equal(missing.wordRecall, 0.25);
    assert.equal(scorePage(truth, truth).cer, 0);
  });

  it('should put each scan set on the README figures beside Tesseract', () => {
    const engines = { auto: { meanCer: 0.12, pagesPerSecond: 0.2 }, tesseract: { meanCer: 0.19, pagesPerSecond: 0.3 } };
    const figures = headlineFigures({
      resultsDir: 'r',
      olmocr: {},
      docling: {},
      suites: { scans: { devScans: { set: 'dev scans (all)', pages: 52, documents: 52, engines }, sets: [] } },
    });
    const row = figures.find((f) => f.figure.startsWith('Degraded scans CER, dev scans'));
    assert.ok(row, JSON.stringify(figures));
    assert.match(row.value, /Folio auto 0\.120.*Tesseract --psm 1 0\.190/);
  });
});
