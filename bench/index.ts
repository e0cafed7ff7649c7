/**
 * Folio's benchmarks: olmOCR-Bench, the docling ground-truth comparison, throughput suites and the
 * report. The CLI's `folio bench <suite>` calls {@link runBench}.
 */

export * from './common/index.ts';
export * from './groundtruth/index.ts';
export * from './olmocr/index.ts';
export type { UpdateReadmeOptions } from './readme-table.ts';
export { FIGURES_END, FIGURES_START, replaceFiguresBlock, updateReadmeFigures } from './readme-table.ts';
export * from './report/index.ts';
export { RESULTS_DIR, runBench, SUITES } from './run-bench.ts';
export type { ExternalSuite, ExternalSuiteFn, ExternalSuiteOptions } from './suites.ts';
export { EXTERNAL_SUITES, loadExternalSuite } from './suites.ts';
export * from './textlayer/index.ts';
