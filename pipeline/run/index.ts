export { processDocument, DEAD_LETTER_SCORE } from './process-document.ts';
export type { ProcessedDocument, PageSummary } from './process-document.ts';
export { ingest } from './ingest.ts';
export type { IngestOptions, ChunkSink, ChunkEmbedder } from './ingest.ts';
export { convert, outputName } from './convert.ts';
export type { ConvertOptions } from './convert.ts';
export type { ProcessOptions, EngineChoice } from './options.ts';
export type { RunSummary } from './summary.ts';
export type { SourceItem, SourceProblem } from './sources.ts';
