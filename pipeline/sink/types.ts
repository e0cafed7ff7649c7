/** What the orchestrator sees of a sink, whichever one it is (Elasticsearch or NDJSON files). */
import type { Chunk, FailureRecord } from '../../core/types.ts';

/** The end state of one document, recorded so a rerun can skip it when its content is unchanged. */
export interface DocumentMark {
  readonly docId: string;
  readonly source: string;
  /** sha256 of the document's bytes. */
  readonly contentHash: string;
  /** The source's own version (see `SourceDocument.version`), recorded so a rerun can skip the download. */
  readonly version?: string | undefined;
  /** Number of pages. */
  readonly pages: number;
  /** Number of chunks written for it in this run. */
  readonly chunks: number;
  readonly status: 'indexed' | 'failed';
  readonly reason?: string | undefined;
  /** sha256 per page, in page order, when the orchestrator has them. */
  readonly pageHashes?: readonly string[] | undefined;
  /** The document this one is an attachment of: it is pruned with that one. */
  readonly parentId?: string | undefined;
  /**
   * Its attachments' `docId`s (child documents, marked after it). Children an earlier version
   * of the document had and this list lacks are removed; absent means none.
   */
  readonly children?: readonly string[] | undefined;
}

export interface SinkStats {
  /** Chunks stored (indexed in Elasticsearch, or written to the files). */
  readonly indexed: number;
  /** Chunks the sink could not store; each one also has a failure record. */
  readonly failed: number;
  /** Bulk requests sent again after a transient fault (429, 5xx, connection lost, timeout). */
  readonly retries: number;
  /** Bytes of bulk payload (action + document lines) produced for chunks. */
  readonly bytes: number;
  /** Failure records by code: those passed to `fail()` and the sink's own. */
  readonly failures: Readonly<Record<string, number>>;
  /** The sink's own failure records (chunks it lost), first 1000. */
  readonly dropped: readonly FailureRecord[];
  /**
   * Where the failure records went and how many of each code: the failures index
   * (`index folio-failures`), the fallback file, or the NDJSON folder's `failures.jsonl`.
   */
  readonly failuresAt: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /**
   * Why the sink stopped storing records: the cluster failed past its retries, and what could
   * not be written went to the fallback file. Undefined while the sink works.
   */
  readonly lost?: string | undefined;
}

/**
 * What a sync may remove: documents recorded under these URI prefixes that `isGone` says are gone.
 * A child document (an attachment) is never asked about: it goes when its parent goes.
 */
export interface PruneScope {
  /** `file://` folder prefixes, or exact URIs, under which gone documents can be recorded. */
  readonly prefixes: readonly string[];
  readonly isGone: (uri: string) => boolean;
}

/** What a prune removed. */
export interface PruneResult {
  /** Documents whose chunks, record and dead letters were removed (their attachments included). */
  readonly removed: number;
  /** Sources of the removed documents, first 100. */
  readonly sources: readonly string[];
}

/**
 * Where chunks go. `write` resolves once the chunk is buffered (it waits while the sink is at its
 * concurrency limit: backpressure); nothing is stored for sure until `close` resolves. A chunk
 * that cannot be stored never rejects `write`: it is counted in `failed` and dead-lettered.
 */
export interface Sink {
  write(chunk: Chunk): Promise<void>;
  /** Record a failure (of a source, page or chunk) in the dead-letter store. */
  fail(record: FailureRecord): Promise<void>;
  /**
   * Record a document's end state once its chunks written so far are settled: a document whose
   * chunks were partly refused is recorded as `failed`, so the next run tries it again.
   */
  markDocument(doc: DocumentMark): Promise<void>;
  /** True when the document with this content hash was already fully stored (always false for files). */
  isUnchanged(docId: string, contentHash: string): Promise<boolean>;
  /**
   * The source version (an S3 ETag, size and date; a web page's validators) at which the document
   * was fully stored, asked before the bytes are downloaded; undefined when unknown or not fully
   * stored. Only a sink that keeps state between runs has it.
   */
  recordedVersion?(docId: string): Promise<string | undefined>;
  /**
   * A document found unchanged by its content under a new source version (an object uploaded
   * again with the same bytes): record the version, so the next run need not download it. Best
   * effort: a failure only costs that download.
   */
  recordVersion?(docId: string, version: string): Promise<void>;
  /**
   * Set once the sink has failed past its retries (the cluster went away): a run should stop
   * feeding it new documents. See {@link SinkStats.lost}.
   */
  readonly lost?: string | undefined;
  /**
   * Remove the documents of `scope` that are gone: their chunks, their sync record and their dead
   * letters. Only a sink that keeps state between runs has it.
   */
  prune?(scope: PruneScope): Promise<PruneResult>;
  /** Flush, wait for everything in flight and release resources. Idempotent. */
  close(): Promise<SinkStats>;
}
