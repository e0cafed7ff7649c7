/**
 * Born-digital PDF text layers as Markdown with DeepSeek-style grounding tags: reading order
 * across columns (XY-cut), headings, paragraphs, lists, code, tables as HTML (from drawn rules or alignment), page
 * headers/footers marked apart, and a verdict on whether the text layer can replace OCR.
 *
 * @example
 * const pdf = await openPdf(bytes, { source: 'a.pdf' });
 * try {
 *   for await (const page of extractTextLayer(pdf)) {
 *     if (page.assessment.usable) use(page.markdown); else ocr(page.pageNumber, page.assessment.reason);
 *   }
 * } finally { await pdf.close(); }
 */

export type { AssessOptions, TextFigures } from './assess.ts';
export { assessText } from './assess.ts';
export { hasRtl, normalizeArabic, visualToLogical } from './bidi.ts';
export type { ExtractTextLayerOptions } from './extract.ts';
export { extractTextLayer } from './extract.ts';
export type { ImageFigures } from './images.ts';
export { pageImages } from './images.ts';
export { groundingTag } from './markdown.ts';
export type { PageText } from './page-text.ts';
export { readPageText } from './page-text.ts';
export { findRuledTables } from './ruled-tables.ts';
export type { PageRules, Rule } from './rules.ts';
export { pageRules } from './rules.ts';
export type { FormulaRegion, TextLayerAssessment, TextLayerPage, TextLayerRegion } from './types.ts';
