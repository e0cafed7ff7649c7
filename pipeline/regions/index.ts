/**
 * Regions of a text-layer page read from its pixels (words drawn as images through the OCR engine,
 * formulas through folio-ocr-math) and merged back in reading order.
 *
 * @example
 * const { markdown, read, details } = await readRegions(layer, { ocr, formula, render });
 */
export { annotateElements } from './annotate.ts';
export type { TaggedBlock } from './blocks.ts';
export type { RegionPage, RegionReaders, RegionResult } from './read.ts';
export { readRegions } from './read.ts';
export type { ScanFormulaPage, ScanFormulaResult } from './read-scan.ts';
export { readScanFormulas } from './read-scan.ts';
export type { ReadingCache } from './reading-cache.ts';
export { readingCacheOf } from './reading-cache.ts';
export type { ScanFormula } from './scan-formulas.ts';
export { findScanFormulas } from './scan-formulas.ts';
export { sharedFormulaReader } from './shared-reader.ts';
export { REGION_DETAIL_KEYS, regionSummary } from './summary.ts';
