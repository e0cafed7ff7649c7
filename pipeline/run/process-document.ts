/**
 * One document through the whole pipeline: pages (text layer or OCR) → elements → quality gate →
 * continued tables merged → chunks, plus the clean Markdown `convert` writes. A bad document or
 * page never throws: it comes back as a failure record naming the document, page and reason.
 * An e-mail's attachments come back as child documents, read the same way (`attachment-children.ts`).
 */
import { describeError, errorCode } from '../../core/errors.ts';
import type { Chunk, Element, FailureRecord, QualityReport, SourceDocument } from '../../core/types.ts';
import { type FormatAttachment, isFormatMime, READABLE_TYPES } from '../formats/index.ts';
import { mergeContinuedTables, renderMarkdown } from '../markdown/index.ts';
import { regionSummary } from '../regions/index.ts';
import { readChildren } from './attachment-children.ts';
import { chunkProcessed, isKept } from './chunk-processed.ts';
import { documentTitle } from './document-title.ts';
import { formatPages } from './format-pages.ts';
import { imagePages } from './image-pages.ts';
import { markdownPages } from './markdown-pages.ts';
import { markOcrFurniture } from './ocr-furniture.ts';
import { type ProcessOptions, validateProcessOptions } from './options.ts';
import { type PageResult, pageFailure } from './page-result.ts';
import { pdfPages } from './pdf-pages.ts';

export { chunkProcessed, DEAD_LETTER_SCORE } from './chunk-processed.ts';

export interface PageSummary {
  readonly pageNumber: number;
  /** Page size in the units of the element boxes (PDF points or pixels); absent for a failed page. */
  readonly width?: number;
  readonly height?: number;
  readonly engine: string;
  readonly reason: string;
  readonly quality?: QualityReport;
  /** Why the page failed: it could not be read, or the quality gate dead-lettered it. */
  readonly failed?: string;
  /** Nothing on the page: no text came back and, for OCR, no ink beyond specks. Not a failure. */
  readonly blank?: boolean;
  /** Regions of a text-layer page read from its pixels: how many went to which engine and were kept (`pipeline/regions`). */
  readonly regions?: Readonly<Record<string, number | string | boolean>>;
}

export interface ProcessedDocument {
  readonly doc: SourceDocument;
  /** False when the document as a whole could not be read (then `failures` says why). */
  readonly ok: boolean;
  /**
   * The document's title: the one its file declares (PDF Info or XMP, Office properties, HTML
   * `<title>`, e-mail subject) unless it is junk (`untitled`, `Microsoft Word - x.doc`, a file
   * name), else its title page's largest heading; absent when it has neither.
   */
  readonly title?: string;
  readonly pages: readonly PageSummary[];
  readonly elements: readonly Element[];
  readonly chunks: readonly Chunk[];
  /** Clean Markdown of the whole document, pages in order, without page headers and footers. */
  readonly markdown: string;
  readonly failures: readonly FailureRecord[];
  /** Its attachments, each a document of its own (`doc.parent` names this one); absent when none was read. */
  readonly children?: readonly ProcessedDocument[];
}

/** The titles a file declares, best first, which its page reader adds as it opens the file; its attachments likewise. */
function pagesOf(
  doc: SourceDocument,
  options: Readonly<ProcessOptions>,
  attachments: FormatAttachment[],
  declared: (string | undefined)[],
): AsyncIterable<PageResult> | undefined {
  if (doc.mime === 'application/pdf') return pdfPages(doc, options, declared);
  if (doc.mime.startsWith('image/')) return imagePages(doc, options);
  if (doc.mime === 'text/markdown' || doc.mime === 'text/plain') return markdownPages(doc, options);
  if (isFormatMime(doc.mime)) return formatPages(doc, options, attachments, declared);
  return undefined;
}

/**
 * @example
 * const result = await processDocument(doc, { engine: 'auto', ocr: () => createEngine('paddle') });
 * for (const chunk of result.chunks) console.log(chunk.pages, chunk.text);
 */
export async function processDocument(doc: SourceDocument, options: Readonly<ProcessOptions> = {}): Promise<ProcessedDocument> {
  return chunkProcessed(await readDocument(doc, options), options);
}

/**
 * {@link processDocument} without the chunking step (`chunks` is empty): worker threads read
 * documents this way when the caller counts tokens with a function that cannot cross to them,
 * and the caller chunks with {@link chunkProcessed}.
 *
 * @example
 * const read = await readDocument(doc, { engine: 'text' });
 * const result = chunkProcessed(read, { countTokens: (text) => tokenizer.count(text) });
 */
export async function readDocument(doc: SourceDocument, options: Readonly<ProcessOptions> = {}): Promise<ProcessedDocument> {
  validateProcessOptions(options);
  const failed = (failure: FailureRecord): ProcessedDocument => ({ doc, ok: false, pages: [], elements: [], chunks: [], markdown: '', failures: [failure] });
  const attachments: FormatAttachment[] = [];
  const declared: (string | undefined)[] = [];
  const pages = pagesOf(doc, options, attachments, declared);
  if (!pages) {
    return failed(
      pageFailure(
        doc.uri,
        doc.id,
        undefined,
        'open',
        'FOLIO_UNSUPPORTED_TYPE',
        `${doc.uri}: unsupported content type ${doc.mime} (Folio reads ${READABLE_TYPES})`,
      ),
    );
  }

  const results: PageResult[] = [];
  try {
    for await (const result of pages) {
      results.push(result);
      if (options.onPageRead) {
        options.onPageRead(result);
        // A viewer shows this page while the next is read: let its requests in between pages
        // (reading a text layer awaits nothing that leaves the thread).
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  } catch (error) {
    options.signal?.throwIfAborted();
    const reason = namedReason(doc, error);
    if (results.length === 0) return failed(pageFailure(doc.uri, doc.id, undefined, 'open', errorCode(error), reason));
    // Pages read before the failure are kept; the rest of the document is recorded as failed.
    results.push({ ok: false, pageNumber: results.length + 1, failure: pageFailure(doc.uri, doc.id, results.length + 1, 'open', errorCode(error), reason) });
  }
  results.sort((a, b) => pageNumberOf(a) - pageNumberOf(b));

  const failures: FailureRecord[] = [];
  const summaries: PageSummary[] = [];
  const pageElements: Element[][] = [];
  const pageSizes: { width: number; height: number; ocr: boolean }[] = [];
  for (const result of results) {
    if (!result.ok) {
      failures.push(result.failure);
      summaries.push({ pageNumber: result.pageNumber, engine: 'none', reason: result.failure.code, failed: result.failure.reason });
      continue;
    }
    const { page, elements } = result;
    const summary: PageSummary = {
      pageNumber: page.pageNumber,
      width: page.width,
      height: page.height,
      engine: page.route.engine,
      reason: page.route.reason,
      quality: result.quality,
      ...(regionSummary(page.route.details) === undefined ? {} : { regions: regionSummary(page.route.details) }),
    };
    if (!isKept(result.quality)) {
      const failure = pageFailure(
        doc.uri,
        doc.id,
        page.pageNumber,
        'quality',
        'FOLIO_QUALITY_GATE',
        `${doc.uri} page ${page.pageNumber}: failed the quality gate (score ${result.quality.score.toFixed(2)}: ${firstReasons(result.quality.reasons)})`,
      );
      failures.push(failure);
      summaries.push({ ...summary, failed: failure.reason });
      continue;
    }
    summaries.push(isBlank(elements) ? { ...summary, blank: true } : summary);
    pageElements.push(elements);
    // Declarative pages carry their furniture from the file itself: no guessing from repetition.
    pageSizes.push({ width: page.width, height: page.height, ocr: page.route.engine !== 'text' && page.route.reason !== 'declarative' });
  }

  const marked = markOcrFurniture(pageElements.map((elements, i) => ({ ...pageSizes[i]!, elements })));
  const elements = mergeContinuedTables(marked);
  // Not one page read (every page failed, or failed the quality gate): the document failed, with
  // its pages' reasons; a document of blank pages is still read.
  const ok = pageElements.length > 0 || failures.length === 0;
  const title = documentTitle({ declared, elements, fileName: doc.relativePath });
  const read = { doc, ok, ...(title === undefined ? {} : { title }), pages: summaries, elements, chunks: [], markdown: renderMarkdown(elements), failures };
  if (attachments.length === 0) return read;
  const { children, failures: notRead } = await readChildren(doc, attachments, options, readDocument);
  return { ...read, failures: [...failures, ...notRead], ...(children.length === 0 ? {} : { children }) };
}

/** A page that yielded nothing to index: no element with text, no figure. */
function isBlank(elements: readonly Element[]): boolean {
  return !elements.some((element) => element.kind === 'figure' || element.text.trim() !== '');
}

/** The error's message, naming the document once. */
function namedReason(doc: SourceDocument, error: unknown): string {
  const message = describeError(error);
  return message.includes(doc.uri) || message.includes(doc.relativePath) ? message : `${doc.uri}: ${message}`;
}

function pageNumberOf(result: PageResult): number {
  return result.ok ? result.page.pageNumber : result.pageNumber;
}

/**
 * The first few reasons and a count of the rest: a page of repeated glyphs can yield hundreds of
 * alike reasons, and the dead-letter record should stay readable.
 */
export function firstReasons(reasons: readonly string[], shown = 3): string {
  const rest = reasons.length - shown;
  return rest > 0 ? `${reasons.slice(0, shown).join('; ')}; and ${rest} more` : reasons.join('; ');
}
