/**
 * `folio bench quality`: born-digital quality on every dev set (ICDAR 2013 tables, docling-dev
 * ground truth, olmOCR-Bench dev), Folio beside pdftotext, pymupdf4llm and tabula-java.
 */
export { QUALITY_USAGE, runQualityBench } from './cli.ts';
export * from './engines/index.ts';
export * from './icdar/index.ts';
export { qualityMarkdown } from './report.ts';
export type { EngineSetResult, QualityBenchOptions, QualityBenchResult, SetResult } from './run.ts';
export { qualityEngines, runQualityBenchSets } from './run.ts';
export { groundTruthSet, icdarSet, isRightToLeft, olmocrSet, pageCount, QUALITY_SETS } from './sets/index.ts';
export type { ConvertRun, QualityDocument, QualityEngine, QualitySet, SetScore } from './types.ts';
