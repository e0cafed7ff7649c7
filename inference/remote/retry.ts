/**
 * The remote engines' retry rules are Folio's one policy (`core/retry.ts`): 429, 502, 503, 504,
 * timeouts and dropped or refused connections are retried with jittered exponential backoff,
 * and a server's `Retry-After` is honoured. Re-exported here for the engines and their callers.
 */

export type { RetryPolicy } from '../../core/retry.ts';
export { backoffMs, DEFAULT_RETRY, isTransientError, isTransientStatus, retryAfterMs } from '../../core/retry.ts';
export { sleep } from '../../core/sleep.ts';
