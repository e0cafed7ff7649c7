/**
 * The package root, `@folio-ocr/folio`: run documents through the pipeline (`convert`, `ingest`,
 * `processDocument`), read them from files and URLs, and the records and errors that come out.
 * The other entry points: `/langchain` (loader, embeddings, retriever), `/elasticsearch`
 * (mappings, sink, search), `/engines` (OCR engines and embedders), `/pipeline` (every stage on
 * its own), `/connector` (sources), `/server` (`folio serve`'s HTTP server).
 *
 * @example
 * import { convert, sourcesFrom } from '@folio-ocr/folio';
 * const summary = await convert(sourcesFrom(['reports/']), { outDir: 'out', engine: 'auto' });
 * console.log(summary.documents, summary.failures);
 */
export { convert, ingest, processDocument, outputName, DEAD_LETTER_SCORE } from '../pipeline/index.ts';
export type {
  ConvertOptions, IngestOptions, ProcessOptions, ProcessedDocument, PageSummary, EngineChoice, RunSummary, ChunkSink, ChunkEmbedder,
} from '../pipeline/index.ts';
export { sourcesFrom, fileSource, urlSource, isSourceFailure, sourceFailure, commonRoot, sniffMime, SUPPORTED_MIME_TYPES } from '../connector/index.ts';
export type { SourceItem, SourceFailure, SourcesFromOptions, FileSourceOptions, UrlSourceOptions } from '../connector/index.ts';
export { createNdjsonSink } from '../pipeline/sink/index.ts';
export type { Sink, SinkStats, NdjsonSinkOptions } from '../pipeline/sink/index.ts';
export type { PageImage, OcrEngine, OcrPageResult } from '../inference/index.ts';
export {
  FolioError, ConfigurationError, SourceError, InferenceError, IndexingError, describeError, errorCode, ERROR_CODES, isFolioErrorCode,
} from '../core/index.ts';
export type {
  FolioErrorOptions, FolioErrorCode, SourceDocument, BBox, RouteDecision, PageMarkdown, ElementKind, TableData, FormulaData, Element,
  ListItem, QualityTerm, QualityReport, Chunk, FailureRecord,
} from '../core/index.ts';
