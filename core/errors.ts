/**
 * One error family for all of Folio. Every error carries a stable `code` a caller can switch on,
 * the `cause` that led to it and `meta` with the document, page or option concerned.
 *
 * Only configuration and transport failures reject a run; a bad document becomes a
 * {@link FailureRecord} (see `core/types.ts`) and the run goes on.
 *
 * @example
 * throw new SourceError('FOLIO_PDF_PASSWORD', 'a.pdf: the PDF is encrypted; pass --password', { meta: { source: 'a.pdf' } })
 */
import type { FolioErrorCode } from './error-codes.ts';

export interface FolioErrorOptions {
  readonly cause?: unknown;
  readonly meta?: Readonly<Record<string, unknown>>;
}

export class FolioError extends Error {
  /** Stable: one of {@link ERROR_CODES} (`core/error-codes.ts`). */
  readonly code: FolioErrorCode;
  readonly meta: Readonly<Record<string, unknown>>;

  constructor(code: FolioErrorCode, message: string, options: FolioErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = 'FolioError';
    this.code = code;
    this.meta = options.meta ?? {};
  }
}

/** A bad option or environment: the run cannot start. */
export class ConfigurationError extends FolioError {
  constructor(code: FolioErrorCode, message: string, options?: FolioErrorOptions) {
    super(code, message, options);
    this.name = 'ConfigurationError';
  }
}

/** A document could not be read, fetched or opened. */
export class SourceError extends FolioError {
  constructor(code: FolioErrorCode, message: string, options?: FolioErrorOptions) {
    super(code, message, options);
    this.name = 'SourceError';
  }
}

/** An OCR engine or model failed on a page, or could not be loaded. */
export class InferenceError extends FolioError {
  constructor(code: FolioErrorCode, message: string, options?: FolioErrorOptions) {
    super(code, message, options);
    this.name = 'InferenceError';
  }
}

/** Elasticsearch (or the NDJSON sink) refused or lost records. */
export class IndexingError extends FolioError {
  constructor(code: FolioErrorCode, message: string, options?: FolioErrorOptions) {
    super(code, message, options);
    this.name = 'IndexingError';
  }
}

/** Any thrown value as a one-line reason, for failure records and logs. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The stable code of a thrown value, `FOLIO_UNKNOWN` for foreign errors. */
export function errorCode(error: unknown): FolioErrorCode {
  return error instanceof FolioError ? error.code : 'FOLIO_UNKNOWN';
}
