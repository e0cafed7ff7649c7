export { FolioError, ConfigurationError, SourceError, InferenceError, IndexingError, describeError, errorCode } from './errors.ts';
export type { FolioErrorOptions } from './errors.ts';
export { ERROR_CODES, isFolioErrorCode } from './error-codes.ts';
export type { FolioErrorCode } from './error-codes.ts';
export { sha256, stableId } from './hash.ts';
export { sleep } from './sleep.ts';
export type {
  SourceDocument, BBox, RouteDecision, PageMarkdown, ElementKind, TableData, FormulaData, Element, ListItem,
  QualityTerm, QualityReport, Chunk, FailureRecord, PageImage, OcrPageResult,
} from './types.ts';
export { DEFAULT_RETRY, TRANSIENT_STATUSES, RetriesExhausted, backoffMs, carriedRetryAfter, isTransientError, isTransientStatus, retryAfterMs, withRetry } from './retry.ts';
export type { RetryOptions, RetryPolicy } from './retry.ts';
