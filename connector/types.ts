import type { FailureRecord, SourceDocument } from '../core/types.ts';

/**
 * An input that could not be read or fetched: a dead-letter record (see `FailureRecord`),
 * yielded in place of a document so the run goes on.
 */
export interface SourceFailure extends FailureRecord {
  readonly stage: 'source';
}

/** What a connector yields. */
export type SourceItem = SourceDocument | SourceFailure;

/**
 * Tell failures from documents.
 * @example
 * for await (const item of fileSource(['docs/'])) if (isSourceFailure(item)) console.warn(item.reason);
 */
export function isSourceFailure(item: SourceItem): item is SourceFailure {
  return (item as Partial<SourceFailure>).stage === 'source' && !('bytes' in item);
}

/** Build a failure record for `source`. */
export function sourceFailure(source: string, code: string, reason: string): SourceFailure {
  return { source, stage: 'source', code, reason, at: new Date().toISOString() };
}
