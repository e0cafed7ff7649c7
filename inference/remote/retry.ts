/**
 * Bounded retries for transient faults only: 429, 5xx, timeouts and dropped connections. Each
 * wait doubles with full jitter, and a server's `Retry-After` is honoured when it asks for longer.
 */

export interface RetryPolicy {
  /** Attempts after the first. @default 4 */
  readonly retries: number;
  /** First backoff in ms. @default 500 */
  readonly baseDelayMs: number;
  /** Longest single wait in ms. @default 30000 */
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 4, baseDelayMs: 500, maxDelayMs: 30_000 };

/** HTTP statuses worth another try. */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500;
}

/** Network-level failures worth another try (reset, refused, timed out, socket closed). */
export function isTransientError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'TimeoutError') return true;
  const code = (error as { code?: string }).code ?? (error.cause as { code?: string } | undefined)?.code;
  if (code && /ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|UND_ERR_SOCKET|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT|UND_ERR_BODY_TIMEOUT|EAI_AGAIN/.test(code)) return true;
  return /fetch failed|socket hang up|terminated|other side closed/i.test(error.message);
}

/** `Retry-After` as milliseconds: either delta-seconds or an HTTP date. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The wait before attempt `attempt` (1-based retry number). */
export function backoffMs(policy: RetryPolicy, attempt: number, retryAfter?: number, random = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const jittered = random() * ceiling;
  return Math.min(policy.maxDelayMs, Math.max(jittered, retryAfter ?? 0));
}

export { sleep } from '../../core/sleep.ts';
