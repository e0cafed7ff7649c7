/**
 * One layout stage for every page of positioned text, whatever route read it: the text layer's
 * glyph runs and paths, or an OCR engine's recognised lines and the rules found in its pixels.
 * A positioned page (`PositionedPage`: fragments with boxes, baselines, sizes, fonts where known
 * and confidences where recognised; rules; image boxes) becomes blocks in reading order across
 * columns: headings, lists, paragraphs, code, tables (drawn and aligned, spans, sideways headers),
 * display formulas, page headers and footers, right-to-left text in logical order, and Markdown
 * with grounding boxes.
 *
 * @example
 * const laid = layoutPage({ pageNumber: 1, origin: 'text-layer', width: 612, height: 792, fragments, rules, images: [] });
 * console.log(laid.markdown);
 */

export { hasRtl, isRtlCode, normalizeArabic, visualOrder, visualToLogical } from './bidi.ts';
export type { PageStyle } from './blocks.ts';
export { toBlocks } from './blocks.ts';
export type { FormulaReading } from './formula/index.ts';
export { findFormulaBands, italicLetter, strongMathCue } from './formula/index.ts';
export { imageRegions } from './image-regions.ts';
export { blockEntries, groundingTag, pageMarkdown } from './markdown.ts';
export type { OcrPageLayout } from './ocr-page.ts';
export { layoutOcrPage, layoutOcrPages, ocrPositionedPage } from './ocr-page.ts';
export { layoutOcrResult, layoutOcrResults, withLayout } from './ocr-result.ts';
export type { ReadingOrderOptions } from './order.ts';
export { lineOf, readingOrder, toLines } from './order.ts';
export type { Box, LayoutFrame, PageOrigin, PositionedPage } from './page.ts';
export { heaviest, pageStyle } from './page.ts';
export { findRuledTables } from './ruled-tables.ts';
export type { PageRules, Rule } from './rules.ts';
export { mergedRules } from './rules.ts';
export type { FurnitureRow, LaidOutPage, LayoutPageOptions } from './stage.ts';
export { layoutPage } from './stage.ts';
export { findPageTables } from './tables.ts';
export type { Block, BlockLabel, FormulaRegion, Fragment, Line, Piece, Run, SidewaysPiece, TextLayerRegion } from './types.ts';
