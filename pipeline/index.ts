/**
 * The pipeline, stage by stage: open a PDF, read its text layer or render it, route each page,
 * parse Markdown into elements, check quality, chunk, and write to a sink. `processDocument`,
 * `ingest` and `convert` run the stages together.
 */
export { processDocument, ingest, convert, outputName, DEAD_LETTER_SCORE } from './run/index.ts';
export type { ProcessedDocument, PageSummary, IngestOptions, ChunkSink, ChunkEmbedder, ConvertOptions, ProcessOptions, EngineChoice, RunSummary, SourceItem, UnreadSource } from './run/index.ts';
export { processInParallel } from './parallel/index.ts';
export type { ParallelOptions } from './parallel/index.ts';
export { openPdf } from './pdf/index.ts';
export type { PdfHandle, OpenPdfOptions } from './pdf/index.ts';
export { extractTextLayer, assessText } from './text-layer/index.ts';
export type { TextLayerPage, TextLayerAssessment } from './text-layer/index.ts';
export { renderPdfPage, loadImagePages } from './render/index.ts';
export { routePage, imageCoverage } from './route/index.ts';
export type { RoutePageOptions } from './route/index.ts';
export { parsePage, splitPages, mergeContinuedTables, renderMarkdown, stripGrounding, latexToText } from './markdown/index.ts';
export type { ParseOptions, RenderOptions } from './markdown/index.ts';
export { checkPage, collapseRepetition } from './quality/index.ts';
export { createFormulaReader, checkReading, formulaView, FORMULA_MODEL } from './formula/index.ts';
export type { FormulaCrop, FormulaReading, FormulaReader, FormulaReaderOptions } from './formula/index.ts';
export { chunkDocument, countTokens } from './chunk/index.ts';
export type { ChunkOptions } from './chunk/index.ts';
export { createEsSink, createNdjsonSink, chunkToDocument } from './sink/index.ts';
export type { Sink, SinkStats, EsSinkOptions, NdjsonSinkOptions } from './sink/index.ts';
