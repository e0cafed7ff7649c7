/**
 * Opening PDFs with PDFium (WebAssembly): it decides up front whether the file is readable,
 * encrypted or corrupt, reads the text layer and the routing figures, and renders pages for OCR.
 */
import { ConfigurationError, SourceError } from '../../core/errors.ts';
import type { PdfiumPage } from './pdfium-document.ts';
import { openPdfiumDocument } from './pdfium-document.ts';

export interface OpenPdfOptions {
  /** Names the document in errors (a path or URI). */
  readonly source: string;
  /**
   * Password for encrypted PDFs.
   * @default undefined
   */
  readonly password?: string;
  /**
   * Pages loaded before PDFium's document is loaded again, which drops the objects, fonts and
   * images it cached; `0` never (see `PDFIUM_RELOAD_PAGES`).
   * @default 32
   */
  readonly reloadEvery?: number;
}

/**
 * One page of an open PDF, for rendering (`renderPdfPage`) and measuring (`imageCoverage`).
 * It holds no PDFium state: each {@link PdfPage.read} loads the page and closes it again, so it
 * stays valid as long as its document is open.
 */
export interface PdfPage {
  readonly source: string;
  /** 1-based. */
  readonly pageNumber: number;
  /** Displayed size in points (rotation applied). */
  readonly width: number;
  readonly height: number;
  /** The visible area in user space, `[x0, y0, x1, y1]`. */
  readonly view: readonly [number, number, number, number];
  /** Load the page in PDFium, hand it to `read` (synchronous), close it. */
  read<T>(read: (page: PdfiumPage) => T): T;
}

/** An open PDF. Call {@link PdfHandle.close} when done (in a `finally`). */
export interface PdfHandle {
  readonly source: string;
  readonly numPages: number;
  /** Times the document was loaded again to drop PDFium's caches ({@link OpenPdfOptions.reloadEvery}). */
  readonly reloads: number;
  /**
   * Load a 1-based page in PDFium, hand it to `read` (synchronous), and close it again. Throws a
   * `SourceError` (`FOLIO_PDF_PAGE_RANGE`, `FOLIO_PDF_CORRUPT`) naming the document and page.
   */
  readPage<T>(pageNumber: number, read: (page: PdfiumPage) => T): T;
  /**
   * A 1-based page, for rendering. Rejects with a `SourceError` (`FOLIO_PDF_PAGE_RANGE`,
   * `FOLIO_PDF_CORRUPT`) naming the document and page.
   */
  page(pageNumber: number): Promise<PdfPage>;
  /**
   * A page's displayed size in points (crop box, rotation applied) without loading the page: for
   * outlining a long document before reading it. Undefined for a page PDFium cannot size.
   */
  pageSize(pageNumber: number): { readonly width: number; readonly height: number } | undefined;
  /**
   * The document's Info entry `tag` (`Title`, `Author`, `Subject`, …) as text, undefined when
   * absent or empty. It is what the producer wrote: `Microsoft Word - x.doc` and `untitled` too.
   */
  metaText(tag: string): string | undefined;
  /** Frees PDFium's document; safe to call twice. */
  close(): Promise<void>;
}

/**
 * Open a PDF from its bytes. PDFium reads the caller's `bytes` in place, never copying or
 * detaching them: they must not change until {@link PdfHandle.close}.
 *
 * @throws {SourceError} `FOLIO_EMPTY_FILE`, `FOLIO_PDF_PASSWORD`, `FOLIO_PDF_BAD_PASSWORD`,
 *   `FOLIO_PDF_CORRUPT`, each naming `source`.
 * @example
 * const pdf = await openPdf(bytes, { source: 'a.pdf' });
 * try { const width = pdf.readPage(1, (page) => page.width); } finally { await pdf.close(); }
 */
export async function openPdf(bytes: Uint8Array, options: Readonly<OpenPdfOptions>): Promise<PdfHandle> {
  const { source, password, reloadEvery } = options ?? ({} as OpenPdfOptions);
  if (typeof source !== 'string' || source === '') {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`source\` to be a non-empty string, got \`${String(source)}\` (${typeof source})`);
  }
  if (!(bytes instanceof Uint8Array)) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`bytes\` to be a Uint8Array, got ${typeof bytes}`);
  }
  if (bytes.byteLength === 0) {
    throw new SourceError('FOLIO_EMPTY_FILE', `${source}: the file is empty (0 bytes)`, { meta: { source } });
  }
  const doc = await openPdfiumDocument(bytes, { source, password, ...(reloadEvery === undefined ? {} : { reloadEvery }) });
  const { numPages } = doc;
  const readPage = <T>(pageNumber: number, read: (page: PdfiumPage) => T): T => {
    if (!Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > numPages) {
      throw new SourceError('FOLIO_PDF_PAGE_RANGE', `${source}: page ${pageNumber} does not exist (the PDF has ${numPages} pages)`, {
        meta: { source, pageNumber },
      });
    }
    return doc.withPage(pageNumber, read);
  };
  return {
    source,
    numPages,
    get reloads() {
      return doc.reloads;
    },
    readPage,
    async page(pageNumber: number): Promise<PdfPage> {
      const { width, height, view } = readPage(pageNumber, (page) => ({ width: page.width, height: page.height, view: page.view }));
      return { source, pageNumber, width, height, view, read: (read) => readPage(pageNumber, read) };
    },
    pageSize: (pageNumber) => doc.pageSize(pageNumber),
    metaText: (tag) => doc.metaText(tag),
    async close(): Promise<void> {
      doc.close();
    },
  };
}
