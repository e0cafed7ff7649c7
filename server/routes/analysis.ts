/**
 * A document read again through the pipeline `folio convert` runs (text layer where good, the
 * server's OCR engine where not), turned into the per-page views the app draws: page size, route,
 * quality, and each element's boxes on that page.
 */
import type { Element, SourceDocument } from '../../core/types.ts';
import type { OcrEngine } from '../../inference/engine.ts';
import { attachmentName, descendants, isUnreadSource, type PageResult, type ProcessedDocument, processSources } from '../../pipeline/run/index.ts';
import type { AttachmentView, Box, ChunkView, ElementView, FailureView, PageView } from './api-types.ts';

export interface AnalyseOptions {
  /** The engine for pages without a good text layer. */
  readonly engine: OcrEngine;
  /** Called after each page (for progress). @default undefined */
  readonly onPage?: (event: { readonly pageNumber: number; readonly engine: string }) => void;
  /** Called with each page and its own elements as soon as it is read (see `ProcessOptions.onPageRead`). @default undefined */
  readonly onPageRead?: (page: PageResult) => void;
  readonly signal?: AbortSignal;
  /** The largest page image, as the server's `--max-pixels`. @default 100_000_000 */
  readonly maxPixels?: number;
  /** Pages per OCR call (see `ProcessOptions.ocrBatchSize`). @default 4 */
  readonly ocrBatchSize?: number;
}

/** Runs one document through the pipeline; a document that cannot be read comes back with `ok: false` and its failures. */
export async function analyse(doc: SourceDocument, options: Readonly<AnalyseOptions>): Promise<ProcessedDocument> {
  const { engine, onPage, onPageRead, signal, maxPixels, ocrBatchSize } = options;
  async function* one(): AsyncGenerator<SourceDocument> {
    yield doc;
  }
  for await (const item of processSources(one(), {
    engine: 'auto',
    ocr: async () => engine,
    onPage,
    onPageRead,
    signal,
    ...(maxPixels === undefined ? {} : { maxPixels }),
    ...(ocrBatchSize === undefined ? {} : { ocrBatchSize }),
  })) {
    if (isUnreadSource(item)) return { doc, ok: false, pages: [], elements: [], chunks: [], markdown: '', failures: [item.failure] };
    return item;
  }
  throw new Error(`${doc.uri}: the pipeline returned nothing`);
}

function boxesOn(element: Element, page: number): Box[] {
  if (element.bboxes && element.bboxes.length > 0) return element.bboxes.filter((b) => b.page === page).map((b) => [...b.bbox] as unknown as Box);
  return element.bbox && element.pageNumber === page ? [[...element.bbox] as unknown as Box] : [];
}

function elementView(element: Element, index: number, boxes: readonly Box[]): ElementView {
  return {
    index,
    kind: element.kind,
    ...(element.level !== undefined ? { level: element.level } : {}),
    text: element.text,
    markdown: element.markdown ?? element.text,
    headingPath: element.headingPath,
    boxes,
  };
}

/**
 * One page as the pipeline hands it over while the document is still being read: its own
 * elements (numbered on the page) before the steps that look across pages revise them.
 */
export function readPageView(result: PageResult): PageView {
  if (!result.ok) return { pageNumber: result.pageNumber, engine: 'none', reason: result.failure.code, failed: result.failure.reason, elements: [] };
  const { page, elements, quality } = result;
  return {
    pageNumber: page.pageNumber,
    width: page.width,
    height: page.height,
    engine: page.route.engine,
    reason: page.route.reason,
    quality: { score: quality.score, passed: quality.passed, reasons: quality.reasons },
    elements: elements.map((element, index) => elementView(element, index, boxesOn(element, page.pageNumber))),
  };
}

/** Each page's summary with the elements that lie on it. */
export function pageViews(result: ProcessedDocument): PageView[] {
  return result.pages.map((page) => {
    const elements: ElementView[] = [];
    result.elements.forEach((element, index) => {
      const boxes = boxesOn(element, page.pageNumber);
      if (element.pageNumber !== page.pageNumber && boxes.length === 0) return;
      elements.push(elementView(element, index, boxes));
    });
    return {
      pageNumber: page.pageNumber,
      ...(page.width !== undefined ? { width: page.width, height: page.height } : {}),
      engine: page.engine,
      reason: page.reason,
      ...(page.quality ? { quality: { score: page.quality.score, passed: page.quality.passed, reasons: page.quality.reasons } } : {}),
      ...(page.failed ? { failed: page.failed } : {}),
      elements,
    };
  });
}

export function chunkViews(result: ProcessedDocument): ChunkView[] {
  return result.chunks.map((chunk) => ({
    id: chunk.id,
    index: chunk.index,
    pages: chunk.pages,
    headingPath: chunk.headingPath,
    bboxes: chunk.bboxes.map(({ page, bbox }) => ({ page, bbox: [...bbox] as unknown as Box })),
    text: chunk.text,
  }));
}

export function failureViews(result: ProcessedDocument): FailureView[] {
  return result.failures.map((f) => ({ stage: f.stage, code: f.code, reason: f.reason, ...(f.pageNumber !== undefined ? { pageNumber: f.pageNumber } : {}) }));
}

/** The document's attachments, at any depth, depth first; undefined when it has none. */
export function attachmentViews(result: ProcessedDocument): AttachmentView[] | undefined {
  const children = descendants(result);
  if (children.length === 0) return undefined;
  return children.map((child) => ({
    id: child.doc.id,
    name: attachmentName(child.doc) ?? child.doc.relativePath,
    source: child.doc.uri,
    parentId: child.doc.parent?.id ?? result.doc.id,
    depth: child.doc.parent?.depth ?? 1,
    mime: child.doc.mime,
    ok: child.ok,
    markdown: child.markdown,
    failures: failureViews(child),
  }));
}
