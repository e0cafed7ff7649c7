/**
 * Folio's one retry policy, used by every place that talks to a server (the Elasticsearch sink,
 * the remote OCR engines, the URL connector, the remote embedder): what is transient is one fixed
 * list, waits grow exponentially with jitter, and a server's `Retry-After` is honoured.
 *
 * Transient: HTTP 429, 502, 503 and 504; timeouts; a connection reset, refused or dropped. A
 * connection refused is transient because a server that restarts refuses for a few seconds;
 * a retry costs one short wait, and the number of retries is bounded. Everything else (other
 * 4xx and 5xx, a name that does not resolve, a bad answer) fails the same way again.
 */
import { sleep } from './sleep.ts';

export interface RetryPolicy {
  /** Attempts after the first. @default 3 */
  readonly retries: number;
  /** Ceiling of the first wait in ms; it doubles per retry. @default 500 */
  readonly baseDelayMs: number;
  /** Longest single wait in ms, `Retry-After` included. @default 30000 */
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 500, maxDelayMs: 30_000 };

/** The HTTP statuses that mean "not now": overloaded (429), a bad or unavailable gateway or node (502, 503, 504). */
export const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** Socket and DNS-retry codes of a connection that failed but may work on the next try. */
const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

/** Error class names of timeouts and dropped connections (fetch's, and the Elasticsearch client's). */
const TRANSIENT_NAMES = new Set(['TimeoutError', 'ConnectionError', 'NoLivingConnectionsError']);

export function isTransientStatus(status: number): boolean {
  return TRANSIENT_STATUSES.has(status);
}

/**
 * Whether a thrown error is worth another try: a timeout or a dropped connection, found on the
 * error or its causes (fetch wraps the socket error as `cause`), or an error carrying a
 * transient HTTP status (`statusCode` of the Elasticsearch client, `status` of ours).
 */
export function isTransientError(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; current = current.cause, depth++) {
    if (TRANSIENT_NAMES.has(current.name)) return true;
    const { code, status, statusCode } = current as { code?: unknown; status?: unknown; statusCode?: unknown };
    if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return true;
    const httpStatus = typeof statusCode === 'number' ? statusCode : typeof status === 'number' ? status : undefined;
    if (httpStatus !== undefined) return isTransientStatus(httpStatus);
    if (/socket hang up|other side closed/i.test(current.message)) return true;
  }
  return false;
}

/** `Retry-After` in ms: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number | undefined {
  if (header === null || header === undefined || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The wait before retry number `retry` (1-based): a random share between half and all of
 * `base·2^(retry−1)` (clients that failed together do not come back together), at least the
 * server's `Retry-After`, at most `maxDelayMs`.
 *
 * @example
 * backoffMs(DEFAULT_RETRY, 1) // 250–500
 */
export function backoffMs(policy: Readonly<RetryPolicy>, retry: number, retryAfter?: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  const jittered = ceiling / 2 + (random() * ceiling) / 2;
  return Math.round(Math.min(policy.maxDelayMs, Math.max(jittered, retryAfter ?? 0)));
}

export interface RetryOptions extends Partial<RetryPolicy> {
  /** Whether a failure may pass. @default isTransientError */
  readonly isTransient?: (error: unknown) => boolean;
  /** The server's `Retry-After` carried by an error, in ms. @default the error's `retryAfterMs` or `retryAfter` field */
  readonly retryAfter?: (error: unknown) => number | undefined;
  /** Called before each wait, with the 1-based retry number. */
  readonly onRetry?: (retry: number, error: unknown, delayMs: number) => void;
  /** Cuts a wait short (rejects with its reason) and stops retrying. */
  readonly signal?: AbortSignal | undefined;
}

/** Thrown by {@link withRetry} once the retries are spent: the last error, and how many tries it took. */
export class RetriesExhausted extends Error {
  readonly attempts: number;
  constructor(attempts: number, cause: unknown) {
    super(`gave up after ${attempts} attempts: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'RetriesExhausted';
    this.attempts = attempts;
  }
}

/**
 * Run `task` until it succeeds, a failure is not transient (rethrown as it is), or the retries are
 * spent (a {@link RetriesExhausted} whose `cause` is the last error). `task` gets the 0-based attempt.
 *
 * @example
 * const response = await withRetry(() => fetchOk(url), { retries: 2 });
 */
export async function withRetry<T>(task: (attempt: number) => Promise<T>, options: Readonly<RetryOptions> = {}): Promise<T> {
  const { isTransient = isTransientError, retryAfter = carriedRetryAfter, onRetry, signal } = options;
  const policy: RetryPolicy = {
    retries: options.retries ?? DEFAULT_RETRY.retries,
    baseDelayMs: options.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs,
  };
  for (let attempt = 0; ; attempt++) {
    signal?.throwIfAborted();
    try {
      return await task(attempt);
    } catch (error) {
      if (signal?.aborted || !isTransient(error)) throw error;
      if (attempt >= policy.retries) throw new RetriesExhausted(attempt + 1, error);
      const delay = backoffMs(policy, attempt + 1, retryAfter(error));
      onRetry?.(attempt + 1, error, delay);
      await sleep(delay, signal);
    }
  }
}

/** `Retry-After` as an error carries it: our errors' `retryAfterMs`/`retryAfter`, the Elasticsearch client's headers. */
export function carriedRetryAfter(error: unknown): number | undefined {
  const {
    retryAfterMs: ms,
    retryAfter,
    meta,
  } = (error ?? {}) as { retryAfterMs?: unknown; retryAfter?: unknown; meta?: { headers?: Record<string, unknown> } };
  if (typeof ms === 'number') return ms;
  if (typeof retryAfter === 'number') return retryAfter;
  // The Elasticsearch client's ResponseError keeps the answer's headers in `meta`.
  const header = meta?.headers?.['retry-after'];
  return typeof header === 'string' ? retryAfterMs(header) : undefined;
}
