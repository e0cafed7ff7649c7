/**
 * Several servers, each with its own concurrency limit: a request goes to the least busy
 * endpoint that is not cooling down, and waits for a free slot when all are full. That wait is
 * the backpressure that slows the pipeline to the servers' pace.
 */

export interface Endpoint {
  readonly url: string;
  inFlight: number;
  /** Until when (ms since epoch) this endpoint is avoided after failures. */
  coolingUntil: number;
}

export class EndpointPool {
  readonly endpoints: readonly Endpoint[];
  readonly #limit: number;
  readonly #waiters: (() => void)[] = [];

  constructor(urls: readonly string[], limitPerEndpoint: number) {
    this.endpoints = urls.map((url) => ({ url: url.replace(/\/+$/, ''), inFlight: 0, coolingUntil: 0 }));
    this.#limit = limitPerEndpoint;
  }

  /** Take a slot on the least busy endpoint, avoiding `exclude` (the one that just failed) when another can serve. */
  async acquire(signal?: AbortSignal, exclude?: Endpoint): Promise<Endpoint> {
    for (;;) {
      signal?.throwIfAborted();
      const chosen = this.#pick(exclude);
      if (chosen) {
        chosen.inFlight++;
        return chosen;
      }
      await new Promise<void>((resolve, reject) => {
        const onAbort = (): void => reject(signal!.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
        this.#waiters.push(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        });
      });
    }
  }

  release(endpoint: Endpoint): void {
    endpoint.inFlight--;
    this.#waiters.shift()?.();
  }

  /** Avoid an endpoint for a while after a connection failure, so others take its load. */
  coolDown(endpoint: Endpoint, ms: number): void {
    endpoint.coolingUntil = Date.now() + ms;
  }

  #pick(exclude?: Endpoint): Endpoint | undefined {
    const now = Date.now();
    const healthy = this.endpoints.filter((e) => e !== exclude && e.coolingUntil <= now);
    // While a healthy server exists, wait for its slot rather than retrying on one that just failed.
    const candidates = healthy.length > 0 ? healthy : this.endpoints;
    const free = candidates.filter((e) => e.inFlight < this.#limit);
    if (free.length === 0) return undefined;
    return free.reduce((best, e) => (e.inFlight < best.inFlight ? e : best));
  }
}
