import assert from 'node:assert/strict';
import sharp from 'sharp';
import type { PageImage } from '../../../inference/engine.ts';
import { createPaddleEngine } from '../../../inference/paddle/index.ts';
import { withLayout } from '../../../pipeline/layout/index.ts';

// `--recognizer folio`: paddle's detector and layout, folio-ocr-lines reading the lines.
describe('paddle engine with the folio line recogniser', function () {
  this.timeout(240_000);

  it('should read a scanned memo page with folio-ocr-lines', async () => {
    const { data, info } = await sharp(new URL('../../../examples/docs/scanned-memo.png', import.meta.url).pathname)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const page: PageImage = {
      data: new Uint8Array(data),
      width: info.width,
      height: info.height,
      channels: 3,
      docId: 'memo',
      source: 'scanned-memo.png',
      pageNumber: 1,
    };
    const engine = withLayout(await createPaddleEngine({ threads: 2, recognizer: 'folio' }));
    try {
      const [result] = await engine.recognize([page]);
      assert.match(result!.markdown, /The archive team scanned 1,240 boxes of invoices this quarter\./);
      assert.match(result!.markdown, /Memo: Quarterly Archive Review/);
    } finally {
      await engine.close();
    }
  });

  it('should refuse an unknown recogniser by name', async () => {
    await assert.rejects(createPaddleEngine({ recognizer: 'tesseract' as 'paddle' }), { code: 'FOLIO_BAD_OPTION' });
  });
});
