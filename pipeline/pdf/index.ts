/**
 * Opening PDFs: PDFium (WebAssembly, loaded lazily) for the text layer, pdfjs-dist (loaded
 * lazily, only when a page is rendered for OCR). Failures become
 * `SourceError`s with stable codes: `FOLIO_EMPTY_FILE`, `FOLIO_PDF_PASSWORD`,
 * `FOLIO_PDF_BAD_PASSWORD`, `FOLIO_PDF_CORRUPT`, `FOLIO_PDF_PAGE_RANGE`.
 *
 * @example
 * const pdf = await openPdf(bytes, { source: 'a.pdf', password });
 * try {
 *   const width = pdf.readPage(1, (page) => page.width);   // PDFium, synchronous
 *   const proxy = await pdf.page(1);                       // pdfjs, for rendering
 * } finally { await pdf.close(); }
 */
export { openPdf } from './open.ts';
export type { OpenPdfOptions, PdfHandle } from './open.ts';
export { loadPdfJs } from './pdfjs.ts';
export { adoptPdfiumModule, compiledPdfium, loadPdfium, Heap } from './pdfium.ts';
export type { Pdfium, PdfiumExports, PdfiumModule } from './pdfium.ts';
export type { Matrix, PdfiumPage } from './pdfium-document.ts';
