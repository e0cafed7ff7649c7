/**
 * A PDF's pages, each routed to its text layer or to OCR, parsed and checked. Text pages that
 * fail the quality gate are sent to OCR when `auto` has an engine to fall back on.
 *
 * Routing reads the figures PDFium's text-layer pass already measured (image coverage, glyphs,
 * invisible glyphs); PDFium renders the pages that go to OCR.
 */
import { describeError, errorCode } from '../../core/errors.ts';
import type { RouteDecision, SourceDocument } from '../../core/types.ts';
import { openPdf } from '../pdf/index.ts';
import { renderPdfPage } from '../render/index.ts';
import { routePage } from '../route/index.ts';
import { extractTextLayer } from '../text-layer/index.ts';
import { OcrQueue } from './ocr-queue.ts';
import type { ProcessOptions } from './options.ts';
import { analysePage, type PageResult, pageFailure } from './page-result.ts';

export async function* pdfPages(doc: SourceDocument, options: Readonly<ProcessOptions>): AsyncIterable<PageResult> {
  const { engine = 'auto', ocr, password, ocrBatchSize = 4, dpi, signal, onPage } = options;
  // `openPdf` copies the bytes into PDFium; the caller's stay intact.
  const pdf = await openPdf(doc.bytes, { password, source: doc.uri });
  const queue = new OcrQueue(ocr, ocrBatchSize, signal);
  const source = doc.uri;

  async function toOcr(pageNumber: number, width: number, height: number, route: RouteDecision): Promise<PageResult | undefined> {
    try {
      const image = await renderPdfPage(await pdf.page(pageNumber), { source, docId: doc.id, pageNumber, dpi });
      queue.add({ image, width, height, route });
      return undefined;
    } catch (error) {
      return {
        ok: false,
        pageNumber,
        failure: pageFailure(source, doc.id, pageNumber, 'render', errorCode(error), `${source} page ${pageNumber}: ${describeError(error)}`),
      };
    }
  }

  try {
    for await (const layer of extractTextLayer(pdf, { signal })) {
      signal?.throwIfAborted();
      const { pageNumber, width, height } = layer;
      const route =
        engine === 'text'
          ? { engine: 'text', reason: 'forced' }
          : engine === 'auto'
            ? // The page is only a fallback for an assessment without image coverage; opened lazily.
              await routePage({ textLayer: layer, page: () => pdf.page(pageNumber), engine })
            : { engine, reason: 'forced' };

      if (route.engine === 'text') {
        const result = analysePage({ docId: doc.id, pageNumber, width, height, markdown: layer.markdown, route }, layer.assessment.usable);
        if (result.quality.passed || engine !== 'auto' || !ocr) {
          onPage?.({ source, pageNumber, engine: 'text' });
          yield result;
          continue;
        }
        const fallback = { engine: 'ocr', reason: 'text-layer-failed-quality', details: { score: result.quality.score } };
        const failed = await toOcr(pageNumber, width, height, fallback);
        if (failed) yield failed;
      } else {
        const failed = await toOcr(pageNumber, width, height, route);
        if (failed) yield failed;
      }
      if (queue.full) yield* report(await queue.flush());
    }
    yield* report(await queue.flush());
  } finally {
    await pdf.close();
  }

  function* report(results: readonly PageResult[]): Iterable<PageResult> {
    for (const result of results) {
      onPage?.({ source, pageNumber: result.ok ? result.page.pageNumber : result.pageNumber, engine: result.ok ? result.page.route.engine : 'failed' });
      yield result;
    }
  }
}
