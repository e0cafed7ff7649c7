export { DEFAULT_TEXTLAYER_DIRS, listBenchPdfs } from './inputs.ts';
export type { BenchPdf } from './inputs.ts';
export { runTextLayerBench, textLayerMarkdown, TEXTLAYER_PHASES } from './run.ts';
export type { PhaseResult, TextLayerBenchOptions, TextLayerBenchResult } from './run.ts';
export { runWorkerPhase, WORKER_PHASES } from './worker.ts';
export { ingestOnce, parseSummary } from './ingest.ts';
export type { IngestSample, IngestOnceOptions } from './ingest.ts';
export type { WorkerReport } from './worker.ts';
export { TEXTLAYER_USAGE, textLayerCli } from './cli.ts';
