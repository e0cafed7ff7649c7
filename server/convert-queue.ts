/**
 * Admission for `POST /v1/convert`: a few documents convert at once, the next ones wait in a
 * queue bounded by count, by bytes and by the wait it would mean; only past those bounds is a
 * client turned away (429), and then told how long the queue really needs (`Retry-After` from
 * the measured time per document), so a client that waits as told finds room. Busy is not
 * failed: a burst of documents queues here instead of bouncing.
 */
import { ConfigurationError } from '../core/errors.ts';
import { HttpError } from './http-error.ts';

export interface ConvertQueueOptions {
  /** Documents converting at once. @default 8 */
  readonly concurrency?: number;
  /** Documents waiting (not yet converting) before 429. @default 64 */
  readonly queueLimit?: number;
  /** Bytes of waiting documents (their declared size) before 429. @default 256 MiB */
  readonly queueBytes?: number;
  /**
   * The longest a newcomer may be expected to wait, in ms, before 429: a wait past the
   * client's own per-attempt timeout (the plugin's default 120 s) would be work thrown away.
   * @default 60000
   */
  readonly maxWaitMs?: number;
  /** What a document is assumed to take before any was measured, in ms. @default 2000 */
  readonly initialDocumentMs?: number;
  /** The longest `Retry-After` given, in s. @default 300 */
  readonly maxRetryAfterSeconds?: number;
}

/** What `/health` tells clients about the queue, in snake case as served. */
export interface ConvertQueueState {
  readonly running: number;
  readonly queued: number;
  readonly queued_bytes: number;
  readonly concurrency: number;
  readonly queue_limit: number;
  readonly queue_bytes: number;
  /** Documents this server takes at once (converting plus queued): what a client should keep open at most. */
  readonly accepts: number;
  /** Mean wall time of a recent document, in ms. */
  readonly document_ms: number;
  /** What a document arriving now would wait, in ms. */
  readonly wait_ms: number;
}

interface Waiter {
  readonly start: () => void;
}

/** A slot held by an admitted document; `release()` once it is done (idempotent). */
export interface ConvertTicket {
  /** Resolves once the document may start converting. */
  readonly ready: Promise<void>;
  /** `converted: false` for a document given up before converting (its client hung up): it does not count in the time per document. */
  release(converted?: boolean): void;
}

export class ConvertQueue {
  readonly #concurrency: number;
  readonly #queueLimit: number;
  readonly #queueBytes: number;
  readonly #maxWaitMs: number;
  readonly #maxRetryAfter: number;
  #documentMs: number;
  #running = 0;
  #queuedBytes = 0;
  #waiting: Waiter[] = [];

  constructor(options: Readonly<ConvertQueueOptions> = {}) {
    const {
      concurrency = 8,
      queueLimit = 64,
      queueBytes = 256 * 1024 * 1024,
      maxWaitMs = 60_000,
      initialDocumentMs = 2000,
      maxRetryAfterSeconds = 300,
    } = options;
    for (const [name, value, min] of [
      ['concurrency', concurrency, 1],
      ['queueLimit', queueLimit, 0],
      ['queueBytes', queueBytes, 0],
      ['maxWaitMs', maxWaitMs, 0],
    ] as const) {
      if (!Number.isInteger(value) || value < min)
        throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`${name}\` to be an integer from ${min} up, got \`${value}\` (${typeof value})`);
    }
    this.#concurrency = concurrency;
    this.#queueLimit = queueLimit;
    this.#queueBytes = queueBytes;
    this.#maxWaitMs = maxWaitMs;
    this.#maxRetryAfter = maxRetryAfterSeconds;
    this.#documentMs = initialDocumentMs;
  }

  /** Documents converting or waiting. */
  get load(): number {
    return this.#running + this.#waiting.length;
  }

  /** What a newcomer would wait: the queue ahead of it, drained `concurrency` at a time. */
  #waitMs(ahead: number): number {
    return Math.ceil(((ahead + 1) * this.#documentMs) / this.#concurrency);
  }

  get state(): ConvertQueueState {
    const queued = this.#waiting.length;
    return {
      running: this.#running,
      queued,
      queued_bytes: this.#queuedBytes,
      concurrency: this.#concurrency,
      queue_limit: this.#queueLimit,
      queue_bytes: this.#queueBytes,
      accepts: this.#concurrency + this.#queueLimit,
      document_ms: Math.round(this.#documentMs),
      wait_ms: this.#running < this.#concurrency ? 0 : this.#waitMs(queued),
    };
  }

  /**
   * Take a slot for a document of `bytes` (its declared size), or throw a 429 whose
   * `Retry-After` is the queue's real wait.
   */
  admit(bytes: number): ConvertTicket {
    let released = false;
    let began = 0;
    let waiter: Waiter | undefined;
    const release = (converted = true): void => {
      if (released) return;
      released = true;
      if (began > 0) {
        this.#running--;
        // A moving mean of the last ~8 documents: recent load decides the next wait.
        if (converted) this.#documentMs += (performance.now() - began - this.#documentMs) / 8;
      } else if (waiter !== undefined) {
        // Released while still queued (the request failed before its turn): leave the queue.
        this.#waiting = this.#waiting.filter((w) => w !== waiter);
        this.#queuedBytes -= bytes;
      }
      this.#next();
    };
    if (this.#running < this.#concurrency && this.#waiting.length === 0) {
      this.#running++;
      began = performance.now();
      return { ready: Promise.resolve(), release };
    }
    const queued = this.#waiting.length;
    const wait = this.#waitMs(queued);
    const reason =
      queued >= this.#queueLimit
        ? `${queued} documents are queued (limit ${this.#queueLimit})`
        : this.#queuedBytes + bytes > this.#queueBytes
          ? `${this.#queuedBytes} bytes are queued and this document has ${bytes} (limit ${this.#queueBytes})`
          : wait > this.#maxWaitMs
            ? `the queue would take about ${Math.ceil(wait / 1000)} s (limit ${Math.ceil(this.#maxWaitMs / 1000)} s)`
            : undefined;
    if (reason !== undefined) {
      // Room comes back when the documents ahead have gone through; ask for no less than that.
      const seconds = Math.min(this.#maxRetryAfter, Math.max(1, Math.ceil(wait / 1000)));
      throw new HttpError(429, 'rate_limit_exceeded', `the server is busy (${this.#running} documents converting, ${reason}); retry after ${seconds} s`, {
        'retry-after': String(seconds),
      });
    }
    this.#queuedBytes += bytes;
    const ready = new Promise<void>((resolve) => {
      waiter = {
        start: () => {
          this.#queuedBytes -= bytes;
          this.#running++;
          began = performance.now();
          resolve();
        },
      };
      this.#waiting.push(waiter);
    });
    return { ready, release };
  }

  #next(): void {
    while (this.#running < this.#concurrency && this.#waiting.length > 0) this.#waiting.shift()!.start();
  }
}
