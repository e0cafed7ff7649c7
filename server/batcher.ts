/**
 * Gathers concurrent requests into one engine call: a GPU engine decodes a batch in about the
 * time of one page. The queue is bounded; when it is full a request is turned away at once (429)
 * rather than waiting without limit.
 */
import type { OcrEngine, OcrPageResult, PageImage } from '../inference/engine.ts';
import { HttpError } from './http-error.ts';

interface Waiting {
  readonly image: PageImage;
  readonly resolve: (result: OcrPageResult) => void;
  readonly reject: (error: unknown) => void;
}

export interface BatcherOptions {
  /** Pages per engine call. @default 8 */
  readonly batchSize?: number;
  /** How long the first request of a batch waits for company, in ms. @default 5 */
  readonly windowMs?: number;
  /** Requests waiting or running before new ones get 429. @default 64 */
  readonly queueLimit?: number;
  /** Seconds a turned-away client is told to wait. @default 1 */
  readonly retryAfterSeconds?: number;
}

export class Batcher {
  readonly #engine: OcrEngine;
  readonly #batchSize: number;
  readonly #windowMs: number;
  readonly #queueLimit: number;
  readonly #retryAfter: number;
  #waiting: Waiting[] = [];
  #running = 0;
  #timer: NodeJS.Timeout | undefined;
  #busy = false;

  constructor(engine: OcrEngine, options: Readonly<BatcherOptions> = {}) {
    const { batchSize = 8, windowMs = 5, queueLimit = 64, retryAfterSeconds = 1 } = options;
    this.#engine = engine;
    this.#batchSize = batchSize;
    this.#windowMs = windowMs;
    this.#queueLimit = queueLimit;
    this.#retryAfter = retryAfterSeconds;
  }

  /** Requests waiting plus running. */
  get load(): number {
    return this.#waiting.length + this.#running;
  }

  /**
   * Queue one page. `admitted` pages belong to a request already let in (a document of
   * `/v1/convert`, bounded by its own limit): they skip the queue bound, or a document could be
   * turned away half-read.
   */
  submit(image: PageImage, options: Readonly<{ admitted?: boolean }> = {}): Promise<OcrPageResult> {
    if (options.admitted !== true && this.load >= this.#queueLimit) {
      return Promise.reject(
        new HttpError(429, 'rate_limit_exceeded', `the server is busy (${this.load} pages queued); retry after ${this.#retryAfter} s`, {
          'retry-after': String(this.#retryAfter),
        }),
      );
    }
    return new Promise((resolve, reject) => {
      this.#waiting.push({ image, resolve, reject });
      if (this.#waiting.length >= this.#batchSize) this.#kick();
      else this.#timer ??= setTimeout(() => this.#kick(), this.#windowMs);
    });
  }

  #kick(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    // One engine call at a time: the engine itself parallelises inside a batch.
    if (this.#busy || this.#waiting.length === 0) return;
    const batch = this.#waiting.splice(0, this.#batchSize);
    this.#busy = true;
    this.#running = batch.length;
    this.#engine
      .recognize(batch.map((w) => w.image))
      .then(
        (results) => batch.forEach((w, i) => w.resolve(results[i]!)),
        async (error) => {
          if (batch.length === 1) return batch[0]!.reject(error);
          // Find the page that failed: the others still deserve an answer.
          for (const w of batch) await this.#engine.recognize([w.image]).then(([r]) => w.resolve(r!), w.reject);
        },
      )
      .finally(() => {
        this.#busy = false;
        this.#running = 0;
        if (this.#waiting.length > 0) this.#kick();
      });
  }
}
