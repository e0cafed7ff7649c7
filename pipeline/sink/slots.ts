/**
 * Bounded concurrency for sinks. Apart from `retry.ts` so that the NDJSON sink does not load the
 * Elasticsearch client (a third of a second of start-up) to write files.
 */

/** A counting semaphore: at most `size` holders; `acquire` waits for a free slot (backpressure). */
export class Slots {
  #free: number;
  readonly #waiters: (() => void)[] = [];

  constructor(size: number) {
    this.#free = size;
  }

  async acquire(): Promise<void> {
    if (this.#free > 0) {
      this.#free -= 1;
      return;
    }
    await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  release(): void {
    const next = this.#waiters.shift();
    // Hand the slot straight to the next waiter so a newcomer cannot overtake it.
    if (next) next();
    else this.#free += 1;
  }
}
