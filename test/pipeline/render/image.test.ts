import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { SourceError } from '../../../core/errors.ts';
import { loadImagePages } from '../../../pipeline/render/index.ts';

const TIFF = '../shared/data/docling-dev/ocr/2206.01062.tif';
const opts = { source: 'in.img', docId: 'doc' };

/** A PNG whose header declares `width × height` (the pixel data stays tiny: a bomb's shape). */
async function pngDeclaring(width: number, height: number): Promise<Uint8Array> {
  const png = new Uint8Array(
    await sharp({ create: { width: 16, height: 16, channels: 3, background: '#fff' } })
      .png()
      .toBuffer(),
  );
  const view = new DataView(png.buffer, png.byteOffset);
  // IHDR data starts at byte 16 (8 signature + 4 length + 4 type); its CRC covers type + data.
  view.setUint32(16, width);
  view.setUint32(20, height);
  view.setUint32(29, crc32(png.subarray(12, 29)));
  return png;
}

describe('loadImagePages', function () {
  this.timeout(60_000);

  it('should decode PNG, JPEG and WebP to RGB pages', async () => {
    const base = sharp({ create: { width: 400, height: 300, channels: 4, background: { r: 10, g: 20, b: 30, alpha: 0.5 } } });
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      const bytes = new Uint8Array(await base.clone().toFormat(format).toBuffer());
      const pages = await loadImagePages(bytes, opts);
      assert.equal(pages.length, 1, format);
      const [page] = pages;
      assert.equal(page?.channels, 3);
      assert.equal(page?.data.length, page!.width * page!.height * 3);
      assert.equal(page?.pageNumber, 1);
    }
  });

  it('should flatten transparency on white', async () => {
    const bytes = new Uint8Array(
      await sharp({ create: { width: 2000, height: 100, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
        .png()
        .toBuffer(),
    );
    const [page] = await loadImagePages(bytes, opts);
    assert.equal(page?.data[0], 255);
  });

  it('should read every page of a multi-page TIFF', async () => {
    const pages = await loadImagePages(await readFile(TIFF), { source: TIFF, docId: 'tif' });
    assert.deepEqual(
      pages.map((p) => p.pageNumber),
      [1, 2],
    );
    // 612×792 at 72 DPI is scaled up for the recogniser.
    assert.ok(
      pages.every((p) => Math.max(p.width, p.height) >= 1800),
      `${pages[0]?.width}×${pages[0]?.height}`,
    );
  });

  it('should honour the EXIF orientation', async () => {
    const bytes = new Uint8Array(
      await sharp({ create: { width: 2000, height: 1000, channels: 3, background: '#808080' } })
        .jpeg()
        .withMetadata({ orientation: 6 })
        .toBuffer(),
    );
    const [page] = await loadImagePages(bytes, opts);
    assert.equal(page?.width, 1000);
    assert.equal(page?.height, 2000);
  });

  it('should refuse corrupt bytes, naming the source', async () => {
    await assert.rejects(
      loadImagePages(new TextEncoder().encode('not an image at all'), opts),
      (e: unknown) => e instanceof SourceError && e.code === 'FOLIO_IMAGE_CORRUPT' && e.message.startsWith('in.img'),
    );
  });

  it('should refuse an empty file', async () => {
    await assert.rejects(loadImagePages(new Uint8Array(0), opts), (e: unknown) => e instanceof SourceError && e.code === 'FOLIO_EMPTY_FILE');
  });

  it('should refuse a 1×1 image as too small', async () => {
    const bytes = new Uint8Array(
      await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } })
        .png()
        .toBuffer(),
    );
    await assert.rejects(loadImagePages(bytes, opts), (e: unknown) => e instanceof SourceError && e.code === 'FOLIO_IMAGE_TOO_SMALL' && /1×1/.test(e.message));
  });

  it('should refuse a 30,000 × 30,000 image before decoding it', async () => {
    const bytes = await pngDeclaring(30_000, 30_000);
    await assert.rejects(
      loadImagePages(bytes, opts),
      (e: unknown) => e instanceof SourceError && e.code === 'FOLIO_IMAGE_TOO_LARGE' && /30000×30000/.test(e.message) && /maxPixels/.test(e.message),
    );
  });

  it('should report a truncated TIFF page as a page error and keep the pages that decode', async () => {
    const whole = await readFile(TIFF);
    const truncated = new Uint8Array(whole.subarray(0, Math.floor(whole.length * 0.75)));
    const errors: SourceError[] = [];
    let pages: Awaited<ReturnType<typeof loadImagePages>> = [];
    try {
      pages = await loadImagePages(truncated, { source: 'cut.tif', docId: 'cut', onPageError: (e) => errors.push(e) });
    } catch (error) {
      // A cut through the header leaves no page at all: that must be a clear error too.
      assert.ok(error instanceof SourceError && error.message.startsWith('cut.tif'), String(error));
      return;
    }
    assert.ok(errors.length >= 1, `pages ${pages.length}, errors ${errors.length}`);
    assert.ok(
      errors.every((e) => /^cut\.tif( page \d+)?: /.test(e.message)),
      errors.map((e) => e.message).join('\n'),
    );
    // A cut TIFF loses the directories of its later pages, so fewer pages may be declared.
    assert.ok(pages.length + errors.length >= 1 && pages.length < 2);
  });

  it('should reject bad options naming the option', async () => {
    await assert.rejects(loadImagePages(new Uint8Array(1), { ...opts, maxPixels: 0 }), /`maxPixels`.*`0`/);
  });
});
