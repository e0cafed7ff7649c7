/**
 * A PDF's pages, each routed to its text layer or to OCR, parsed and checked. Text pages that
 * fail the quality gate are sent to OCR when `auto` has an engine to fall back on.
 *
 * Routing reads the figures PDFium's text-layer pass already measured (image coverage, glyphs,
 * invisible glyphs); PDFium renders the pages that go to OCR.
 */
import { describeError, errorCode } from '../../core/errors.ts';
import type { RouteDecision, SourceDocument } from '../../core/types.ts';
import { openPdf, xmpTitle } from '../pdf/index.ts';
import { annotateElements, readRegions, sharedFormulaReader } from '../regions/index.ts';
import { renderPdfPage, renderPdfRegions } from '../render/index.ts';
import { routePage } from '../route/index.ts';
import type { TextLayerPage } from '../text-layer/index.ts';
import { extractTextLayer } from '../text-layer/index.ts';
import { OcrQueue } from './ocr-queue.ts';
import type { ProcessOptions } from './options.ts';
import { analysePage, type PageResult, pageFailure } from './page-result.ts';

/** `declared` receives the titles the file declares (Info, then XMP) once it is open. */
export async function* pdfPages(doc: SourceDocument, options: Readonly<ProcessOptions>, declared: (string | undefined)[] = []): AsyncIterable<PageResult> {
  const {
    engine = 'auto',
    ocr,
    password,
    ocrBatchSize = 4,
    dpi,
    maxPixels,
    signal,
    onPage,
    imageRegions = true,
    formulaRegions = true,
    formulaDevice = 'cpu',
  } = options;
  // `openPdf` copies the bytes into PDFium; the caller's stay intact.
  const pdf = await openPdf(doc.bytes, { password, source: doc.uri });
  declared.push(pdf.metaText('Title'), xmpTitle(doc.bytes));
  // Under auto, display formulas on the pages sent to OCR are read by folio-ocr-math too.
  const scanFormulas = engine === 'auto' && formulaRegions ? () => sharedFormulaReader(formulaDevice) : undefined;
  const queue = new OcrQueue(ocr, ocrBatchSize, signal, scanFormulas);
  const source = doc.uri;

  async function toOcr(pageNumber: number, width: number, height: number, route: RouteDecision): Promise<PageResult | undefined> {
    try {
      const image = await renderPdfPage(await pdf.page(pageNumber), {
        source,
        docId: doc.id,
        pageNumber,
        dpi,
        ...(maxPixels === undefined ? {} : { maxPixels }),
      });
      queue.add({ image, width, height, route, dpi: (image.width / width) * 72 });
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
          yield engine === 'auto' && result.quality.passed && layer.regions !== undefined ? await withRegions(layer, result, route) : result;
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

  /**
   * The page with its image and formula regions read from its pixels and merged in; the text
   * layer's page when nothing was read, when the merged page fails the quality gate, or when
   * reading failed (the reason goes into the route details).
   */
  async function withRegions(layer: TextLayerPage, result: PageResult & { ok: true }, route: RouteDecision): Promise<PageResult> {
    const { pageNumber, width, height } = layer;
    const render = async (at: number, boxes: readonly (readonly [number, number, number, number])[]) =>
      renderPdfRegions(await pdf.page(pageNumber), boxes, { source, docId: doc.id, pageNumber, dpi: at, ...(maxPixels === undefined ? {} : { maxPixels }) });
    const details = { ...route.details };
    try {
      const read = await readRegions(
        { markdown: layer.markdown, width, height, regions: layer.regions ?? [] },
        {
          ocr: imageRegions ? ocr : undefined,
          formula: formulaRegions ? () => sharedFormulaReader(formulaDevice) : undefined,
          render,
          signal,
        },
      );
      Object.assign(details, read.details);
      if (read.read.length === 0 && read.markdown === layer.markdown) return withDetails(result, details);
      const merged = analysePage({ ...result.page, markdown: read.markdown, route: { ...route, details } }, true);
      if (!merged.quality.passed) return withDetails(result, { ...details, regionsDropped: 'merged page failed the quality gate' });
      return { ...merged, elements: annotateElements(merged.elements, read.markdown, read.read) };
    } catch (error) {
      signal?.throwIfAborted();
      return withDetails(result, { ...details, regionsFailed: `${source} page ${pageNumber}: ${describeError(error)}` });
    }
  }

  function* report(results: readonly PageResult[]): Iterable<PageResult> {
    for (const result of results) {
      onPage?.({ source, pageNumber: result.ok ? result.page.pageNumber : result.pageNumber, engine: result.ok ? result.page.route.engine : 'failed' });
      yield result;
    }
  }
}

function withDetails(result: PageResult & { ok: true }, details: Readonly<Record<string, number | string | boolean>>): PageResult {
  return { ...result, page: { ...result.page, route: { ...result.page.route, details } } };
}
