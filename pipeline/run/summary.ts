import type { FailureRecord } from '../../core/types.ts';
import type { ProcessedDocument } from './process-document.ts';

/** What a run did, accounting for every input. */
export interface RunSummary {
  readonly documents: number;
  readonly documentsFailed: number;
  /** Documents skipped because the same content was already indexed. */
  readonly documentsUnchanged: number;
  readonly pages: number;
  readonly pagesFailed: number;
  /** Pages per engine that produced them (`text`, `paddle`, `markdown`, …). */
  readonly pagesByEngine: Readonly<Record<string, number>>;
  readonly chunks: number;
  readonly chunksFailed: number;
  /** Failure counts by stable error code. */
  readonly failuresByCode: Readonly<Record<string, number>>;
  readonly failures: readonly FailureRecord[];
  readonly seconds: number;
  readonly pagesPerSecond: number;
}

/** Accumulates a {@link RunSummary} as documents finish. */
export class SummaryBuilder {
  readonly #started = performance.now();
  #documents = 0;
  #documentsFailed = 0;
  #documentsUnchanged = 0;
  #pages = 0;
  #pagesFailed = 0;
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
      if (page.failed) this.#pagesFailed++;
      else this.#pagesByEngine[page.engine] = (this.#pagesByEngine[page.engine] ?? 0) + 1;
    }
    this.#failures.push(...result.failures);
  }

  chunks(indexed: number, failed: number): void {
    this.#chunks += indexed;
    this.#chunksFailed += failed;
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
      pages: this.#pages,
      pagesFailed: this.#pagesFailed,
      pagesByEngine: { ...this.#pagesByEngine },
      chunks: this.#chunks,
      chunksFailed: this.#chunksFailed,
      failuresByCode,
      failures: [...this.#failures],
      seconds,
      pagesPerSecond: seconds > 0 ? this.#pages / seconds : 0,
    };
  }
}
