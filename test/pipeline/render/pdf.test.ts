import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { SourceError } from '../../../core/errors.ts';
import type { PdfHandle, PdfPage } from '../../../pipeline/pdf/index.ts';
import { openPdf } from '../../../pipeline/pdf/index.ts';
import { chooseDpi, renderPdfPage, renderPdfRegions } from '../../../pipeline/render/index.ts';

const SCAN = '../shared/data/docling-dev/ocr/ocr_test.pdf';

describe('chooseDpi', () => {
  it('should give about 200 DPI for Letter and stay within 72–300', () => {
    assert.equal(chooseDpi(612, 792), 200);
    assert.equal(chooseDpi(100, 100), 300);
    assert.equal(chooseDpi(5000, 5000), 72);
  });
});

describe('renderPdfPage', function () {
  this.timeout(60_000);
  let pdf: PdfHandle;
  before(async () => {
    pdf = await openPdf(await readFile(SCAN), { source: SCAN });
  });
  after(async () => pdf.close());

  it('should render a page to RGB at the chosen DPI', async () => {
    const page = await pdf.page(1);
    const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = page.view;
    const image = await renderPdfPage(page, { source: SCAN, docId: 'd', pageNumber: 1 });
    const dpi = chooseDpi(x1 - x0, y1 - y0);
    assert.equal(image.channels, 3);
    assert.equal(image.width, Math.floor(((x1 - x0) * dpi) / 72));
    assert.equal(image.data.length, image.width * image.height * 3);
    // A scan of black text on white: both must be there.
    let dark = 0;
    let light = 0;
    for (let i = 0; i < image.data.length; i += 3) image.data[i]! < 80 ? dark++ : image.data[i]! > 200 ? light++ : 0;
    assert.ok(dark > 1000 && light > image.width * image.height * 0.5, `dark ${dark}, light ${light}`);
  });

  it('should render at a given DPI and shrink to fit maxPixels', async () => {
    const page = await pdf.page(1);
    const small = await renderPdfPage(page, { source: SCAN, docId: 'd', pageNumber: 1, dpi: 72 });
    assert.equal(small.width, Math.floor(page.view[2]! - page.view[0]!));
    const capped = await renderPdfPage(page, { source: SCAN, docId: 'd', pageNumber: 1, dpi: 300, maxPixels: 100_000 });
    assert.ok(capped.width * capped.height <= 100_000, `${capped.width}×${capped.height}`);
  });

  it('should render rectangles of a page as the same pixels the whole page has there, in one load of the page', async () => {
    const page = await pdf.page(1);
    const options = { source: SCAN, docId: 'd', pageNumber: 1, dpi: 100 };
    const whole = await renderPdfPage(page, options);
    let loads = 0;
    const counted: PdfPage = { ...page, read: (read) => (loads++, page.read(read)) };
    const boxes = [
      [72, 72, 300, 200],
      [-10, 500, 100, 10_000],
    ] as const;
    const regions = await renderPdfRegions(counted, boxes, options);
    assert.equal(loads, 1);
    assert.equal(regions[1]!.box[0], 0, 'clipped to the page on the left');
    assert.ok(regions[1]!.box[3] <= page.height && regions[1]!.box[1] <= 500, `clipped to the page below: ${regions[1]!.box}`);
    for (const region of regions) {
      const x0 = Math.round((region.box[0] * 100) / 72);
      const y0 = Math.round((region.box[1] * 100) / 72);
      for (let y = 0; y < region.height; y++) {
        const from = ((y0 + y) * whole.width + x0) * 3;
        assert.deepEqual(
          region.data.subarray(y * region.width * 3, (y + 1) * region.width * 3),
          whole.data.subarray(from, from + region.width * 3),
          `row ${y}`,
        );
      }
    }
  });

  it('should turn a page that fails to render into a SourceError naming the page', async () => {
    const broken: PdfPage = {
      source: 'x.pdf',
      pageNumber: 7,
      width: 100,
      height: 100,
      view: [0, 0, 100, 100],
      read: () => {
        throw new Error('bad XObject');
      },
    };
    await assert.rejects(
      renderPdfPage(broken, { source: 'x.pdf', docId: 'd', pageNumber: 7 }),
      (e: unknown) => e instanceof SourceError && e.code === 'FOLIO_RENDER_FAILED' && /^x\.pdf page 7: .*bad XObject/.test(e.message),
    );
  });

  it('should render a page as displayed, /Rotate applied: the turned scan comes out turned, with the same ink', async () => {
    const turned = await openPdf(await readFile('../shared/data/docling-dev/ocr/ocr_test_rotated_90.pdf'), { source: 'r90.pdf' });
    try {
      const upright = await renderPdfPage(await pdf.page(1), { source: SCAN, docId: 'd', pageNumber: 1, dpi: 50 });
      const sideways = await renderPdfPage(await turned.page(1), { source: 'r90.pdf', docId: 'd', pageNumber: 1, dpi: 50 });
      assert.deepEqual([sideways.width, sideways.height], [upright.height, upright.width]);
      const ink = (image: { data: Uint8Array }): number => image.data.reduce((n, v) => n + (v < 128 ? 1 : 0), 0);
      assert.ok(Math.abs(ink(upright) - ink(sideways)) / ink(upright) < 0.1, `ink ${ink(upright)} vs ${ink(sideways)}`);
    } finally {
      await turned.close();
    }
  });

  it('should reject a bad dpi naming the option', async () => {
    await assert.rejects(renderPdfPage(await pdf.page(1), { source: SCAN, docId: 'd', pageNumber: 1, dpi: 5 }), /`dpi`.*`5`/);
  });
});
