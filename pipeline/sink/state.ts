/**
 * The bookkeeping of a sink: counters, requests in flight (bounded by slots), and per document
 * how many of its chunks are still unsettled, so its end state is recorded only once they are.
 */
import { describeError, IndexingError } from '../../core/errors.ts';
import type { FailureRecord } from '../../core/types.ts';
import { Slots } from './slots.ts';
import type { DocumentMark, SinkStats } from './types.ts';

/** How many of a sink's own failure records `stats.dropped` keeps. */
const DROPPED_KEPT = 1000;

type Settled = (mark: DocumentMark, failedChunks: number, reason: string | undefined) => void;

interface DocumentProgress {
  pending: number;
  written: number;
  failed: number;
  firstReason?: string;
  mark?: DocumentMark;
  onSettled?: Settled;
}

export class SinkState {
  readonly #slots: Slots;
  readonly #inflight = new Set<Promise<void>>();
  readonly #documents = new Map<string, DocumentProgress>();
  readonly #failures: Record<string, number> = {};
  readonly #dropped: FailureRecord[] = [];
  readonly #failuresAt: Record<string, Record<string, number>> = {};
  #lost: string | undefined;
  #indexed = 0;
  #failed = 0;
  #retries = 0;
  #bytes = 0;
  /** A fault that lost records for good (the local fallback failed too): `close` rejects with it. */
  #fatal: IndexingError | undefined;

  constructor(concurrency: number) {
    this.#slots = new Slots(concurrency);
  }

  get indexedCount(): number {
    return this.#indexed;
  }

  written(docId: string, bytes: number): void {
    this.#bytes += bytes;
    const progress = this.#progress(docId);
    progress.pending += 1;
    progress.written += 1;
  }

  indexed(docId: string): void {
    this.#indexed += 1;
    this.#settle(docId, undefined);
  }

  chunkFailed(docId: string, record: FailureRecord): void {
    this.#failed += 1;
    this.failure(record);
    if (this.#dropped.length < DROPPED_KEPT) this.#dropped.push(record);
    this.#settle(docId, record.reason);
  }

  failure(record: FailureRecord): void {
    this.#failures[record.code] = (this.#failures[record.code] ?? 0) + 1;
  }

  /** `count` failure records of `code` are stored at `where`. */
  stored(where: string, code: string, count = 1): void {
    const codes = (this.#failuresAt[where] ??= {});
    codes[code] = (codes[code] ?? 0) + count;
  }

  get lost(): string | undefined {
    return this.#lost;
  }

  /** The store is gone past its retries; the first reason is kept. */
  lose(reason: string): void {
    this.#lost ??= reason;
  }

  retried(): void {
    this.#retries += 1;
  }

  /** Call `onSettled` once every chunk written so far for `mark.docId` is indexed or failed. */
  mark(mark: DocumentMark, onSettled: Settled): void {
    const progress = this.#progress(mark.docId);
    progress.mark = mark;
    progress.onSettled = onSettled;
    this.#settle(mark.docId, undefined, false);
  }

  /**
   * Run `task` in a free slot; resolves once it has started (backpressure), not when it ends.
   * The task counts as in flight from the moment it queues for a slot, so `drained` cannot miss it.
   */
  run(task: () => Promise<void>): Promise<void> {
    let started!: () => void;
    const startedPromise = new Promise<void>((resolve) => {
      started = resolve;
    });
    const running: Promise<void> = (async () => {
      await this.#slots.acquire();
      started();
      try {
        await task();
      } catch (error) {
        this.#fatal ??= new IndexingError('FOLIO_SINK_INTERNAL', `sink task failed: ${describeError(error)}`, { cause: error });
      } finally {
        this.#slots.release();
      }
    })();
    this.#inflight.add(running);
    void running.finally(() => this.#inflight.delete(running));
    return startedPromise;
  }

  /** Wait until nothing is in flight, including work started by work that was in flight. */
  async drained(): Promise<void> {
    while (this.#inflight.size > 0) await Promise.all([...this.#inflight]);
  }

  /** Await a write to the fallback file; if the disk fails too the records are lost and `close` says so. */
  async fallback(write: Promise<void>, path: string, count: number): Promise<void> {
    try {
      await write;
    } catch (error) {
      this.#fatal ??= new IndexingError(
        'FOLIO_FALLBACK_WRITE',
        `${count} failure records could not be stored in the failures index nor in ${path}: ${describeError(error)}`,
        { cause: error, meta: { path } },
      );
    }
  }

  /** The final figures; rejects if records were lost for good. */
  stats(): SinkStats {
    if (this.#fatal !== undefined) throw this.#fatal;
    return {
      indexed: this.#indexed,
      failed: this.#failed,
      retries: this.#retries,
      bytes: this.#bytes,
      failures: { ...this.#failures },
      dropped: [...this.#dropped],
      failuresAt: Object.fromEntries(Object.entries(this.#failuresAt).map(([where, codes]) => [where, { ...codes }])),
      ...(this.#lost === undefined ? {} : { lost: this.#lost }),
    };
  }

  #progress(docId: string): DocumentProgress {
    let progress = this.#documents.get(docId);
    if (progress === undefined) {
      progress = { pending: 0, written: 0, failed: 0 };
      this.#documents.set(docId, progress);
    }
    return progress;
  }

  #settle(docId: string, failure: string | undefined, countsOne = true): void {
    const progress = this.#documents.get(docId);
    if (progress === undefined) return;
    if (countsOne) {
      progress.pending -= 1;
      if (failure !== undefined) {
        progress.failed += 1;
        progress.firstReason ??= failure;
      }
    }
    if (progress.pending > 0 || progress.mark === undefined || progress.onSettled === undefined) return;
    this.#documents.delete(docId);
    const reason =
      progress.failed > 0 ? `${progress.failed} of ${progress.written} chunks not indexed; first: ${progress.firstReason ?? 'unknown'}` : undefined;
    progress.onSettled(progress.mark, progress.failed, reason);
  }
}
