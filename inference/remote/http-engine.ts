/**
 * What every HTTP engine shares: servers balanced by load with a concurrency limit each, a
 * per-request timeout and an overall deadline, and bounded retries of transient faults with
 * backoff — elsewhere when another server can take the page.
 */
import { ConfigurationError, InferenceError } from '../../core/errors.ts';
import type { OcrEngine, OcrPageResult, PageImage, RecognizeOptions } from '../engine.ts';
import { type Endpoint, EndpointPool } from './endpoints.ts';
import { backoffMs, DEFAULT_RETRY, isTransientError, isTransientStatus, type RetryPolicy, retryAfterMs, sleep } from './retry.ts';

export interface HttpEngineOptions {
  /** Base URLs of the servers. */
  readonly urls: readonly string[];
  /** Requests in flight per server. @default 32 */
  readonly concurrency?: number;
  /** Per-request timeout in ms. @default 120000 */
  readonly timeoutMs?: number;
  /** Overall deadline for one `recognize` call in ms; none by default. */
  readonly deadlineMs?: number;
  /** @default DEFAULT_RETRY */
  readonly retry?: Partial<RetryPolicy>;
}

export interface HttpEngineStats {
  requests: number;
  retries: number;
  failures: number;
}

export interface HttpEngine extends OcrEngine {
  readonly stats: Readonly<HttpEngineStats>;
}

/** One request to one server for one page; throws {@link HttpStatusError} for non-2xx answers. */
export type SendPage = (endpoint: string, page: PageImage, signal: AbortSignal) => Promise<SentPage>;

/** A server's answer for one page; `requestMs` is the time on the wire and at the server. */
export interface SentPage {
  readonly markdown: string;
  readonly tokens: number;
  readonly requestMs: number;
}

export class HttpStatusError extends Error {
  readonly status: number;
  readonly retryAfter: number | undefined;
  constructor(status: number, body: string, retryAfter: number | undefined) {
    super(`HTTP ${status}${body ? `: ${body.slice(0, 300)}` : ''}`);
    this.name = 'HttpStatusError';
    this.status = status;
    this.retryAfter = retryAfter;
  }

  static async from(response: Response): Promise<HttpStatusError> {
    const body = await response.text().catch(() => '');
    return new HttpStatusError(response.status, body, retryAfterMs(response.headers.get('retry-after')));
  }
}

export function createHttpEngine(name: string, send: SendPage, options: Readonly<HttpEngineOptions>): HttpEngine {
  const { urls, concurrency = 32, timeoutMs = 120_000, deadlineMs } = options;
  if (!Array.isArray(urls) || urls.length === 0)
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`urls\` of the ${name} engine to list at least one server base URL, got none`);
  for (const url of urls) {
    if (!/^https?:\/\/[^/]/.test(url))
      throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected each ${name} URL to start with http:// or https://, got \`${url}\``);
  }
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`concurrency\` to be an integer from 1 and up, got \`${concurrency}\``);
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const pool = new EndpointPool(urls, concurrency);
  const stats: HttpEngineStats = { requests: 0, retries: 0, failures: 0 };

  async function recognizeOne(page: PageImage, signal: AbortSignal): Promise<OcrPageResult> {
    const queued = performance.now();
    let started: number | undefined;
    let retries = 0;
    let previous: Endpoint | undefined;
    for (;;) {
      const endpoint = await pool.acquire(signal, previous);
      // Latency counts from the first slot: waiting for one is backpressure, not this page's cost.
      started ??= performance.now();
      let result: SentPage;
      try {
        stats.requests++;
        result = await send(endpoint.url, page, AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]));
      } catch (error) {
        pool.release(endpoint);
        signal.throwIfAborted();
        const status = error instanceof HttpStatusError ? error.status : undefined;
        const transient = status !== undefined ? isTransientStatus(status) : isTransientError(error);
        if (!transient || retries >= policy.retries) {
          stats.failures++;
          const what = error instanceof Error ? error.message : String(error);
          throw new InferenceError(
            transient ? 'FOLIO_REMOTE_UNAVAILABLE' : 'FOLIO_REMOTE_REJECTED',
            `${page.source} page ${page.pageNumber}: ${endpoint.url} failed${retries ? ` after ${retries} retries` : ''}: ${what}`,
            { cause: error, meta: { source: page.source, pageNumber: page.pageNumber, status, retries } },
          );
        }
        retries++;
        stats.retries++;
        // A server that dropped the connection is avoided for a while; one that said 429 is only busy.
        if (status === undefined) pool.coolDown(endpoint, policy.baseDelayMs * 4);
        previous = endpoint;
        await sleep(backoffMs(policy, retries, error instanceof HttpStatusError ? error.retryAfter : undefined), signal);
        continue;
      }
      pool.release(endpoint);
      const done = performance.now();
      return {
        markdown: result.markdown,
        engine: name,
        stats: { ms: done - started, waitMs: started - queued, requestMs: result.requestMs, tokens: result.tokens, retries },
      };
    }
  }

  return {
    name,
    stats,
    async recognize(pages: readonly PageImage[], recognizeOptions: Readonly<RecognizeOptions> = {}): Promise<OcrPageResult[]> {
      const signals = [recognizeOptions.signal, deadlineMs ? AbortSignal.timeout(deadlineMs) : undefined].filter((s): s is AbortSignal => s !== undefined);
      const signal = signals.length > 0 ? AbortSignal.any(signals) : new AbortController().signal;
      return Promise.all(pages.map((page) => recognizeOne(page, signal)));
    },
    async close(): Promise<void> {},
  };
}
