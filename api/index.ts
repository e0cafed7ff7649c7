/**
 * The package root, `@folio-ocr/folio`: run documents through the pipeline (`convert`, `ingest`,
 * `processDocument`), read them from files, URLs, S3 buckets and crawled sites, and the records and errors that come out.
 * The other entry points: `/langchain` (loader, embeddings, retriever), `/elasticsearch`
 * (mappings, sink, search), `/engines` (OCR engines and embedders), `/pipeline` (every stage on
 * its own), `/connector` (sources), `/server` (`folio serve`'s HTTP server).
 *
 * @example
 * import { convert, sourcesFrom } from '@folio-ocr/folio';
 * const summary = await convert(sourcesFrom(['reports/']), { outDir: 'out', engine: 'auto' });
 * console.log(summary.documents, summary.failures);
 */

// First: on a Node older than the package supports, this fails at once naming both versions.
import '../core/require-node.ts';

export type { CrawlOptions, FileSourceOptions, S3SourceOptions, SourceFailure, SourceItem, SourcesFromOptions, UrlSourceOptions } from '../connector/index.ts';
export {
  commonRoot,
  crawlSource,
  fileSource,
  isSourceFailure,
  SUPPORTED_MIME_TYPES,
  s3Source,
  sniffMime,
  sourceFailure,
  sourcesFrom,
  urlSource,
} from '../connector/index.ts';
export type {
  BBox,
  Chunk,
  Element,
  ElementKind,
  FailureRecord,
  FolioErrorCode,
  FolioErrorOptions,
  FormulaData,
  ListItem,
  PageMarkdown,
  QualityReport,
  QualityTerm,
  RouteDecision,
  SourceDocument,
  TableData,
} from '../core/index.ts';
export {
  ConfigurationError,
  describeError,
  ERROR_CODES,
  errorCode,
  FolioError,
  IndexingError,
  InferenceError,
  isFolioErrorCode,
  SourceError,
} from '../core/index.ts';
export type { OcrEngine, OcrPageResult, PageImage } from '../inference/index.ts';
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
} from '../pipeline/index.ts';
export { convert, DEAD_LETTER_SCORE, ingest, layoutOcrResult, outputName, processDocument, withLayout } from '../pipeline/index.ts';
export type { NdjsonSinkOptions, Sink, SinkStats } from '../pipeline/sink/index.ts';
export { createNdjsonSink } from '../pipeline/sink/index.ts';
