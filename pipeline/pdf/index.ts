/**
 * Opening PDFs with PDFium (WebAssembly, loaded lazily): the text layer, the routing figures and
 * the rendering for OCR all come from it. Failures become `SourceError`s with stable codes:
 * `FOLIO_EMPTY_FILE`, `FOLIO_PDF_PASSWORD`, `FOLIO_PDF_BAD_PASSWORD`, `FOLIO_PDF_CORRUPT`,
 * `FOLIO_PDF_PAGE_RANGE`.
 *
 * @example
 * const pdf = await openPdf(bytes, { source: 'a.pdf', password });
 * try {
 *   const width = pdf.readPage(1, (page) => page.width);   // synchronous
 *   const image = await renderPdfPage(await pdf.page(1), { source: 'a.pdf', docId, pageNumber: 1 });
 * } finally { await pdf.close(); }
 */

export type { OpenPdfOptions, PdfHandle, PdfPage } from './open.ts';
export { openPdf } from './open.ts';
export type { Pdfium, PdfiumExports, PdfiumModule } from './pdfium.ts';
export { adoptPdfiumModule, compiledPdfium, configurePdfium, Heap, loadPdfium, PDFIUM_RECYCLE_BYTES } from './pdfium.ts';
export type { Matrix, PdfiumPage } from './pdfium-document.ts';
export { PDFIUM_RELOAD_PAGES } from './pdfium-document.ts';
export { xmpTitle } from './xmp.ts';
