/**
 * Opening PDFs with pdfjs-dist (loaded lazily), shared by the text-layer extractor and the
 * renderer. Failures become `SourceError`s with stable codes: `FOLIO_EMPTY_FILE`,
 * `FOLIO_PDF_PASSWORD`, `FOLIO_PDF_BAD_PASSWORD`, `FOLIO_PDF_CORRUPT`, `FOLIO_PDF_PAGE_RANGE`.
 *
 * @example
 * const pdf = await openPdf(bytes, { source: 'a.pdf', password });
 * try { const page = await pdf.page(1); } finally { await pdf.close(); }
 */
export { openPdf, loadPdfJs } from './open.ts';
export type { OpenPdfOptions, PdfHandle } from './open.ts';
