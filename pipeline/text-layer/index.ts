/**
 * Born-digital PDF text layers as Markdown with DeepSeek-style grounding tags: each page read into
 * a positioned page (fragments, drawn rules, image boxes) and laid out by the layout stage
 * (`pipeline/layout`: reading order, headings, lists, tables, formulas, furniture), with a
 * verdict on whether the text layer can replace OCR.
 *
 * @example
 * const pdf = await openPdf(bytes, { source: 'a.pdf' });
 * try {
 *   for await (const page of extractTextLayer(pdf)) {
 *     if (page.assessment.usable) use(page.markdown); else ocr(page.pageNumber, page.assessment.reason);
 *   }
 * } finally { await pdf.close(); }
 */

// The layout of a page is the layout stage's (`pipeline/layout`); these names stay here for the
// callers that read them with the text layer's.
export type { FormulaRegion, PageRules, Rule, TextLayerRegion } from '../layout/index.ts';
export { findRuledTables, groundingTag, hasRtl, normalizeArabic, visualToLogical } from '../layout/index.ts';
export type { AssessOptions, TextFigures } from './assess.ts';
export { assessText } from './assess.ts';
export type { ExtractTextLayerOptions } from './extract.ts';
export { extractTextLayer } from './extract.ts';
export type { ImageFigures } from './images.ts';
export { pageImages } from './images.ts';
export type { PageText } from './page-text.ts';
export { readPageText } from './page-text.ts';
export { pageRules } from './rules.ts';
export type { TextLayerAssessment, TextLayerPage } from './types.ts';
