export { DEFAULT_TEXTLAYER_DIRS, listBenchPdfs } from './inputs.ts';
export type { BenchPdf } from './inputs.ts';
export { runTextLayerBench, textLayerMarkdown } from './run.ts';
export type { PhaseResult, TextLayerBenchOptions, TextLayerBenchResult } from './run.ts';
export { runWorkerPhase } from './worker.ts';
export type { WorkerReport } from './worker.ts';
export { TEXTLAYER_USAGE, textLayerCli } from './cli.ts';
