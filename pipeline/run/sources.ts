import type { FailureRecord, SourceDocument } from '../../core/types.ts';

/** What a connector yields: a document, or why an input could not be read. */
export interface SourceProblem {
  readonly source: string;
  readonly code: string;
  readonly reason: string;
}

export type SourceItem = SourceDocument | SourceProblem;

export function isDocument(item: SourceItem): item is SourceDocument {
  return 'bytes' in item;
}

export function sourceFailureRecord(problem: SourceProblem): FailureRecord {
  return { source: problem.source, stage: 'source', code: problem.code, reason: problem.reason, at: new Date().toISOString() };
}

/** An input that never became a document (missing path, unreachable URL), with its failure record. */
export interface SourceFailure {
  readonly problem: SourceProblem;
  readonly failure: FailureRecord;
}

/** Tells a {@link SourceFailure} from a processed document in a stream of both. */
export function isSourceFailure(item: object): item is SourceFailure {
  return 'problem' in item && 'failure' in item;
}
