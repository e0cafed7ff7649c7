import type { FailureRecord } from '../../core/types.ts';
import type { ProcessedDocument } from './process-document.ts';

/** What a run did, accounting for every input. */
export interface RunSummary {
  readonly documents: number;
  readonly documentsFailed: number;
  /** Documents skipped because the same content was already indexed. */
  readonly documentsUnchanged: number;
  /** Documents removed from the index because they are gone from their folder, glob or URL. */
  readonly documentsRemoved: number;
  /** Every page of the documents read, whatever became of it. */
  readonly pages: number;
  /** Pages that could not be read or were dead-lettered by the quality gate. */
  readonly pagesFailed: number;
  /** Pages with nothing on them (no text, no ink beyond specks): recorded as blank, not failed. */
  readonly pagesBlank: number;
  /** Pages per engine that produced them (`text`, `paddle`, `markdown`, …). */
  readonly pagesByEngine: Readonly<Record<string, number>>;
  readonly chunks: number;
  readonly chunksFailed: number;
  /** Failure counts by stable error code. */
  readonly failuresByCode: Readonly<Record<string, number>>;
  readonly failures: readonly FailureRecord[];
  readonly seconds: number;
  readonly pagesPerSecond: number;
  /** Why the run stopped reading new documents: the sink lost its store. */
  readonly stopped?: string;
  /** Why gone documents were not pruned (a listing failed). */
  readonly pruneSkipped?: string;
}

/** Accumulates a {@link RunSummary} as documents finish. */
export class SummaryBuilder {
  readonly #started = performance.now();
  #documents = 0;
  #documentsFailed = 0;
  #documentsUnchanged = 0;
  #pages = 0;
  #pagesFailed = 0;
  #pagesBlank = 0;
  #documentsRemoved = 0;
  #stopped: string | undefined;
  #pruneSkipped: string | undefined;
  #chunks = 0;
  #chunksFailed = 0;
  readonly #pagesByEngine: Record<string, number> = {};
  readonly #failures: FailureRecord[] = [];

  /** A document that never got as far as the pipeline (missing path, unreachable URL). */
  sourceFailed(failure: FailureRecord): void {
    this.#documents++;
    this.#documentsFailed++;
    this.#failures.push(failure);
  }

  unchanged(): void {
    this.#documents++;
    this.#documentsUnchanged++;
  }

  document(result: ProcessedDocument): void {
    this.#documents++;
    const usable = result.ok && (result.chunks.length > 0 || result.failures.length === 0);
    if (!usable) this.#documentsFailed++;
    for (const page of result.pages) {
      this.#pages++;
      if (page.failed !== undefined) this.#pagesFailed++;
      else if (page.blank === true) this.#pagesBlank++;
      // Every page that an engine read is counted under it, dead-lettered or not: the line adds up.
      if (page.engine !== 'none') this.#pagesByEngine[page.engine] = (this.#pagesByEngine[page.engine] ?? 0) + 1;
    }
    this.#failures.push(...result.failures);
    // An attachment is a document of its own in the index, so it is counted as one.
    for (const child of result.children ?? []) this.document(child);
  }

  chunks(indexed: number, failed: number): void {
    this.#chunks += indexed;
    this.#chunksFailed += failed;
  }

  removed(count: number): void {
    this.#documentsRemoved += count;
  }

  stopped(reason: string): void {
    this.#stopped ??= reason;
  }

  pruneSkipped(reason: string): void {
    this.#pruneSkipped ??= reason;
  }

  /** Failures reported later by a sink (e.g. chunks that Elasticsearch refused). */
  failure(record: FailureRecord): void {
    this.#failures.push(record);
  }

  build(): RunSummary {
    const seconds = (performance.now() - this.#started) / 1000;
    const failuresByCode: Record<string, number> = {};
    for (const f of this.#failures) failuresByCode[f.code] = (failuresByCode[f.code] ?? 0) + 1;
    return {
      documents: this.#documents,
      documentsFailed: this.#documentsFailed,
      documentsUnchanged: this.#documentsUnchanged,
      documentsRemoved: this.#documentsRemoved,
      pages: this.#pages,
      pagesFailed: this.#pagesFailed,
      pagesBlank: this.#pagesBlank,
      pagesByEngine: { ...this.#pagesByEngine },
      chunks: this.#chunks,
      chunksFailed: this.#chunksFailed,
      failuresByCode,
      failures: [...this.#failures],
      seconds,
      pagesPerSecond: seconds > 0 ? this.#pages / seconds : 0,
      ...(this.#stopped === undefined ? {} : { stopped: this.#stopped }),
      ...(this.#pruneSkipped === undefined ? {} : { pruneSkipped: this.#pruneSkipped }),
    };
  }
}
