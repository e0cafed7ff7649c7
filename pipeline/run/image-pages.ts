/** Image files (PNG, JPEG, TIFF, WebP): every page goes to OCR. */
import { errorCode } from '../../core/errors.ts';
import type { SourceDocument } from '../../core/types.ts';
import { sharedFormulaReader } from '../regions/index.ts';
import { loadImagePages } from '../render/index.ts';
import { OcrQueue } from './ocr-queue.ts';
import type { ProcessOptions } from './options.ts';
import { type PageResult, pageFailure } from './page-result.ts';

export async function* imagePages(doc: SourceDocument, options: Readonly<ProcessOptions>): AsyncIterable<PageResult> {
  const { engine = 'auto', ocr, ocrBatchSize = 4, maxPixels, signal, onPage, formulaRegions = true, formulaDevice = 'cpu' } = options;
  // A bad page of a multi-page TIFF is recorded; the other pages are still read.
  const broken: PageResult[] = [];
  const images = await loadImagePages(doc.bytes, {
    source: doc.uri,
    docId: doc.id,
    ...(maxPixels === undefined ? {} : { maxPixels }),
    onPageError: (error) => {
      const pageNumber = Number(error.meta['pageNumber'] ?? broken.length + 1);
      broken.push({ ok: false, pageNumber, failure: pageFailure(doc.uri, doc.id, pageNumber, 'render', errorCode(error), error.message) });
    },
  });
  yield* broken;
  // Under auto, display formulas on the images are read by folio-ocr-math (no DPI is known: the crop's scale comes from its lines).
  const queue = new OcrQueue(ocr, ocrBatchSize, signal, engine === 'auto' && formulaRegions ? () => sharedFormulaReader(formulaDevice) : undefined);
  for (const [i, image] of images.entries()) {
    queue.add({ image, width: image.width, height: image.height, route: { engine: 'ocr', reason: 'image-input' } });
    if (!queue.full && i < images.length - 1) continue;
    for (const result of await queue.flush()) {
      onPage?.({
        source: doc.uri,
        pageNumber: result.ok ? result.page.pageNumber : result.pageNumber,
        engine: result.ok ? result.page.route.engine : 'failed',
      });
      yield result;
    }
  }
}
