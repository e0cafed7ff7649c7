/**
 * The pipeline, stage by stage: open a PDF, read its text layer or render it, route each page,
 * read a declarative format (Word, Excel, PowerPoint, OpenDocument, HTML, EPUB, e-mail, CSV, RTF),
 * lay out positioned pages (text layer or OCR lines) into Markdown, parse Markdown into elements,
 * check quality, chunk, and write to a sink. `processDocument`,
 * `ingest` and `convert` run the stages together.
 */

// First: on a Node older than the package supports, this fails at once naming both versions.
import '../core/require-node.ts';

export type { ChunkOptions } from './chunk/index.ts';
export { chunkDocument, countTokens } from './chunk/index.ts';
export type { FormatDocument, FormatPage, ReadFormatOptions } from './formats/index.ts';
export { FORMAT_MIME_TYPES, isFormatMime, readFormat } from './formats/index.ts';
export type { FormulaCrop, FormulaReader, FormulaReaderOptions, FormulaReading } from './formula/index.ts';
export { checkReading, createFormulaReader, FORMULA_MODEL, formulaView } from './formula/index.ts';
export type { LaidOutPage, LayoutPageOptions, OcrPageLayout, PositionedPage } from './layout/index.ts';
export { layoutOcrPage, layoutOcrResult, layoutPage, withLayout } from './layout/index.ts';
export type { ParseOptions, RenderOptions } from './markdown/index.ts';
export { latexToText, mergeContinuedTables, parsePage, renderMarkdown, splitPages, stripGrounding } from './markdown/index.ts';
export type { ParallelOptions } from './parallel/index.ts';
export { processInParallel } from './parallel/index.ts';
export type { OpenPdfOptions, PdfHandle } from './pdf/index.ts';
export { openPdf } from './pdf/index.ts';
export { checkPage, collapseRepetition } from './quality/index.ts';
export { loadImagePages, renderPdfPage } from './render/index.ts';
export type { RoutePageOptions } from './route/index.ts';
export { imageCoverage, routePage } from './route/index.ts';
export type {
  ChunkEmbedder,
  ChunkSink,
  ConvertOptions,
  EngineChoice,
  IngestOptions,
  PageSummary,
  ProcessedDocument,
  ProcessOptions,
  RunSummary,
  SourceItem,
  UnreadSource,
} from './run/index.ts';
export { convert, DEAD_LETTER_SCORE, ingest, outputName, processDocument } from './run/index.ts';
export type { EsSinkOptions, NdjsonSinkOptions, Sink, SinkStats } from './sink/index.ts';
export { chunkToDocument, createEsSink, createNdjsonSink } from './sink/index.ts';
export type { TextLayerAssessment, TextLayerPage } from './text-layer/index.ts';
export { assessText, extractTextLayer } from './text-layer/index.ts';
