export type { FolioErrorCode } from './error-codes.ts';
export { ERROR_CODES, isFolioErrorCode } from './error-codes.ts';
export type { FolioErrorOptions } from './errors.ts';
export { ConfigurationError, describeError, errorCode, FolioError, IndexingError, InferenceError, SourceError } from './errors.ts';
export { sha256, stableId } from './hash.ts';
export type { LruOptions } from './lru.ts';
export { Lru } from './lru.ts';
export type { BoxMapper, FrameBox } from './ocr-frame.ts';
export { imageGrid, reskewBounds, unrotateBounds, uprightSize } from './ocr-frame.ts';
export type { RetryOptions, RetryPolicy } from './retry.ts';
export {
  backoffMs,
  carriedRetryAfter,
  DEFAULT_RETRY,
  isTransientError,
  isTransientStatus,
  RetriesExhausted,
  retryAfterMs,
  TRANSIENT_STATUSES,
  withRetry,
} from './retry.ts';
export { sleep } from './sleep.ts';
export type {
  BBox,
  Chunk,
  DocumentParent,
  Element,
  ElementKind,
  ElementLocation,
  FailureRecord,
  FormulaData,
  ListItem,
  OcrImageFrame,
  OcrLine,
  OcrPageResult,
  OcrPositionedLine,
  OcrPositionedPage,
  PageImage,
  PageMarkdown,
  PixelRule,
  PixelRules,
  QualityReport,
  QualityTerm,
  RouteDecision,
  SourceDocument,
  TableData,
} from './types.ts';
