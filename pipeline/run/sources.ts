import type { SourceFailure, SourceItem } from '../../connector/types.ts';
import type { FailureRecord, SourceDocument } from '../../core/types.ts';

export type { SourceItem } from '../../connector/types.ts';

export function isDocument(item: SourceItem): item is SourceDocument {
  return 'bytes' in item;
}

/** The dead letter of an input the connector could not read (its own record, stamped now). */
export function sourceFailureRecord(problem: SourceFailure): FailureRecord {
  return { source: problem.source, stage: 'source', code: problem.code, reason: problem.reason, at: new Date().toISOString() };
}

/**
 * In a stream of processed documents: an input that never became a document (missing path,
 * unreachable URL), with its failure record.
 */
export interface UnreadSource {
  readonly problem: SourceFailure;
  readonly failure: FailureRecord;
}

/** Tells an {@link UnreadSource} from a processed document in a stream of both. */
export function isUnreadSource(item: object): item is UnreadSource {
  return 'problem' in item && 'failure' in item;
}
