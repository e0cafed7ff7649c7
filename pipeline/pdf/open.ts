/**
 * Opening PDFs: PDFium (WebAssembly) reads the text layer and the routing figures, pdfjs renders
 * pages for OCR. PDFium opens the document up front — it decides whether the file
 * is readable, encrypted or corrupt — and pdfjs is opened only when a caller first asks for a
 * pdfjs page, so text-only runs never load it.
 */
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { ConfigurationError, SourceError } from '../../core/errors.ts';
import { openPdfiumDocument } from './pdfium-document.ts';
import type { PdfiumPage } from './pdfium-document.ts';
import { messageOf, openPdfJs } from './pdfjs.ts';
import type { PdfJsDocument } from './pdfjs.ts';

export interface OpenPdfOptions {
  /** Names the document in errors (a path or URI). */
  readonly source: string;
  /**
   * Password for encrypted PDFs.
   * @default undefined
   */
  readonly password?: string;
  /**
   * Keep pdfjs' font data after parsing (needed to read font names such as `Times-Bold` from
   * `page.commonObjs`); costs memory, so only set it when you need it.
   * @default false
   */
  readonly fontExtraProperties?: boolean;
}

/** An open PDF. Call {@link PdfHandle.close} when done (in a `finally`). */
export interface PdfHandle {
  readonly source: string;
  readonly numPages: number;
  /**
   * Load a 1-based page in PDFium, hand it to `read` (synchronous), and close it again. Throws a
   * `SourceError` (`FOLIO_PDF_PAGE_RANGE`, `FOLIO_PDF_CORRUPT`) naming the document and page.
   */
  readPage<T>(pageNumber: number, read: (page: PdfiumPage) => T): T;
  /**
   * The pdfjs page proxy of a 1-based page number, for rendering; pdfjs opens the document on
   * the first call. Rejects with a `SourceError` (`FOLIO_PDF_PAGE_RANGE`, `FOLIO_PDF_CORRUPT`).
   */
  page(pageNumber: number): Promise<PDFPageProxy>;
  /** The pdfjs document (opened on first call), for callers that need outline or metadata. */
  pdfjs(): Promise<PDFDocumentProxy>;
  /** Frees PDFium's document and, if it was opened, pdfjs'; safe to call twice. */
  close(): Promise<void>;
}

/**
 * Open a PDF from its bytes. The caller's `bytes` are copied, never detached.
 *
 * @throws {SourceError} `FOLIO_EMPTY_FILE`, `FOLIO_PDF_PASSWORD`, `FOLIO_PDF_BAD_PASSWORD`,
 *   `FOLIO_PDF_CORRUPT`, each naming `source`.
 * @example
 * const pdf = await openPdf(bytes, { source: 'a.pdf' });
 * try { const width = pdf.readPage(1, (page) => page.width); } finally { await pdf.close(); }
 */
export async function openPdf(bytes: Uint8Array, options: Readonly<OpenPdfOptions>): Promise<PdfHandle> {
  const { source, password, fontExtraProperties = false } = options ?? ({} as OpenPdfOptions);
  if (typeof source !== 'string' || source === '') {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`source\` to be a non-empty string, got \`${String(source)}\` (${typeof source})`);
  }
  if (!(bytes instanceof Uint8Array)) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`bytes\` to be a Uint8Array, got ${typeof bytes}`);
  }
  if (bytes.byteLength === 0) {
    throw new SourceError('FOLIO_EMPTY_FILE', `${source}: the file is empty (0 bytes)`, { meta: { source } });
  }
  const doc = await openPdfiumDocument(bytes, { source, password });
  const { numPages } = doc;
  let pdfjs: Promise<PdfJsDocument> | undefined;
  let closed = false;
  const checkRange = (pageNumber: number): void => {
    if (!Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > numPages) {
      throw new SourceError('FOLIO_PDF_PAGE_RANGE', `${source}: page ${pageNumber} does not exist (the PDF has ${numPages} pages)`, {
        meta: { source, pageNumber },
      });
    }
  };
  const pdfjsDocument = async (): Promise<PDFDocumentProxy> => {
    if (closed) throw new SourceError('FOLIO_PDF_CLOSED', `${source}: the document is closed`, { meta: { source } });
    pdfjs ??= openPdfJs(bytes, source, password, fontExtraProperties);
    return (await pdfjs).document;
  };
  return {
    source,
    numPages,
    readPage<T>(pageNumber: number, read: (page: PdfiumPage) => T): T {
      checkRange(pageNumber);
      return doc.withPage(pageNumber, read);
    },
    async page(pageNumber: number): Promise<PDFPageProxy> {
      checkRange(pageNumber);
      const document = await pdfjsDocument();
      try {
        return await document.getPage(pageNumber);
      } catch (error) {
        throw new SourceError('FOLIO_PDF_CORRUPT', `${source}: page ${pageNumber} cannot be read: ${messageOf(error)}`, {
          cause: error,
          meta: { source, pageNumber },
        });
      }
    },
    pdfjs: pdfjsDocument,
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      doc.close();
      const opened = pdfjs;
      pdfjs = undefined;
      if (opened !== undefined) await opened.then((d) => d.destroy(), () => undefined);
    },
  };
}
