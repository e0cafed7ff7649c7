export { TEXTLAYER_USAGE, textLayerCli } from './cli.ts';
export type { IngestOnceOptions, IngestSample } from './ingest.ts';
export { ingestOnce, parseSummary } from './ingest.ts';
export type { BenchPdf } from './inputs.ts';
export { DEFAULT_TEXTLAYER_DIRS, listBenchPdfs } from './inputs.ts';
export type { PhaseResult, TextLayerBenchOptions, TextLayerBenchResult } from './run.ts';
export { runTextLayerBench, TEXTLAYER_PHASES, textLayerMarkdown } from './run.ts';
export type { WorkerReport } from './worker.ts';
export { runWorkerPhase, WORKER_PHASES } from './worker.ts';
