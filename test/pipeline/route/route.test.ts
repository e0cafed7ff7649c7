import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { ConfigurationError } from '../../../core/errors.ts';
import type { PdfHandle } from '../../../pipeline/pdf/index.ts';
import { openPdf } from '../../../pipeline/pdf/index.ts';
import { imageCoverage, routePage } from '../../../pipeline/route/index.ts';

const SCAN = '../shared/data/docling-dev/ocr/ocr_test.pdf';
const DIGITAL = '../shared/data/docling-dev/pdf/2305.03393v1-pg9.pdf';
const good = { assessment: { usable: true, reason: 'text-layer-good', details: { chars: 40 } } };

async function open(path: string): Promise<PdfHandle> {
  return openPdf(await readFile(path), { source: path });
}

describe('imageCoverage', function () {
  this.timeout(60_000);

  it('should see a scan as almost all image and a born-digital page as little', async () => {
    const scan = await open(SCAN);
    const digital = await open(DIGITAL);
    try {
      const s = await imageCoverage(await scan.page(1));
      const d = await imageCoverage(await digital.page(1));
      assert.ok(s.coverage > 0.9 && s.images >= 1, JSON.stringify(s));
      assert.ok(d.coverage < 0.3, JSON.stringify(d));
    } finally {
      await scan.close();
      await digital.close();
    }
  });
});

describe('routePage', function () {
  this.timeout(60_000);

  it('should force the text layer or an engine when asked', async () => {
    assert.deepEqual(await routePage({ engine: 'text' }), { engine: 'text', reason: 'forced', details: {} });
    assert.deepEqual(await routePage({ engine: 'paddle', textLayer: good }), { engine: 'paddle', reason: 'forced', details: {} });
  });

  it('should send a page without a text layer to OCR', async () => {
    const route = await routePage({ engine: 'auto' });
    assert.equal(route.engine, 'paddle');
    assert.equal(route.reason, 'no-text-layer');
  });

  it('should keep the text layer’s own reason when it is unusable, and use the chosen OCR engine', async () => {
    const route = await routePage({
      engine: 'auto',
      ocrEngine: 'onnx',
      textLayer: { assessment: { usable: false, reason: 'invisible-text', details: { invisibleRatio: 1 } } },
    });
    assert.deepEqual(route, { engine: 'onnx', reason: 'invisible-text', details: { invisibleRatio: 1 } });
  });

  it('should OCR a scanned page even when a little text sits on it', async () => {
    const pdf = await open(SCAN);
    try {
      const route = await routePage({ engine: 'auto', textLayer: good, page: await pdf.page(1) });
      assert.equal(route.engine, 'paddle');
      assert.equal(route.reason, 'mostly-image');
      assert.ok(Number(route.details?.imageCoverage) > 0.9);
    } finally {
      await pdf.close();
    }
  });

  it('should keep a good text layer on a born-digital page and record the image coverage', async () => {
    const pdf = await open(DIGITAL);
    try {
      const route = await routePage({
        engine: 'auto',
        textLayer: { assessment: { usable: true, reason: 'text-layer-good', details: { chars: 3000 } } },
        page: await pdf.page(1),
        coverage: 'always',
      });
      assert.equal(route.engine, 'text');
      assert.equal(route.reason, 'text-layer-good');
      assert.equal(typeof route.details?.imageCoverage, 'number');
      assert.equal(route.details?.chars, 3000);
    } finally {
      await pdf.close();
    }
  });

  it('should keep the text layer of a picture-heavy page with plenty of text', async () => {
    const pdf = await open(SCAN);
    try {
      const route = await routePage({
        engine: 'auto',
        textLayer: { assessment: { usable: true, reason: 'text-layer-good', details: { chars: 5000 } } },
        page: await pdf.page(1),
        coverage: 'always',
      });
      assert.equal(route.engine, 'text');
      assert.equal(route.details?.mixed, true);
      const quick = await routePage({
        engine: 'auto',
        textLayer: { assessment: { usable: true, reason: 'text-layer-good', details: { chars: 5000 } } },
        page: await pdf.page(1),
      });
      assert.equal(quick.engine, 'text');
      assert.equal(quick.details?.imageCoverage, undefined, 'a text-rich page skips the operator list by default');
    } finally {
      await pdf.close();
    }
  });

  it('should decide on the image coverage the text layer measured, never opening the page', async () => {
    const opened: number[] = [];
    const page = async (): Promise<never> => {
      opened.push(1);
      throw new Error('page opened');
    };
    const scan = await routePage({
      engine: 'auto',
      page,
      textLayer: { assessment: { usable: true, reason: 'text-layer-good', details: { chars: 40, imageCoverage: 0.98, images: 1, largestImage: 0.98 } } },
    });
    assert.equal(scan.engine, 'paddle');
    assert.equal(scan.reason, 'mostly-image');
    assert.equal(scan.details?.imageCoverage, 0.98);
    assert.equal(scan.details?.images, 1);
    const figures = await routePage({
      engine: 'auto',
      page,
      textLayer: { assessment: { usable: true, reason: 'text-layer-good', details: { chars: 3000, imageCoverage: 0.3, images: 2, largestImage: 0.2 } } },
    });
    assert.equal(figures.engine, 'text');
    assert.equal(figures.reason, 'text-layer-good');
    assert.equal(figures.details?.mixed, true);
    const plain = await routePage({
      engine: 'auto',
      page,
      textLayer: { assessment: { usable: true, reason: 'text-layer-good', details: { chars: 3000, imageCoverage: 0, images: 0 } } },
    });
    assert.equal(plain.engine, 'text');
    assert.equal(plain.details?.mixed, undefined);
    const none = await routePage({
      engine: 'auto',
      page,
      textLayer: { assessment: { usable: false, reason: 'no-text-layer', details: { chars: 0, imageCoverage: 1 } } },
    });
    assert.equal(none.reason, 'no-text-layer');
    assert.deepEqual(opened, [], 'the page was opened although the assessment carried the coverage');
  });

  it('should open a lazily given page only when the assessment carries no coverage', async () => {
    const pdf = await open(SCAN);
    try {
      let opened = 0;
      const route = await routePage({ engine: 'auto', textLayer: good, page: () => (opened++, pdf.page(1)) });
      assert.equal(opened, 1);
      assert.equal(route.reason, 'mostly-image');
      assert.ok(Number(route.details?.imageCoverage) > 0.9);
    } finally {
      await pdf.close();
    }
  });

  it('should reject a bad engine naming the option', async () => {
    await assert.rejects(routePage({ engine: '' }), (e: unknown) => e instanceof ConfigurationError && /`engine`/.test(e.message));
  });
});
