/** Which faults are worth another try and how long to wait. */
import { errors } from '@elastic/elasticsearch';

/** Statuses the server uses for "not now": overload (429) and an unhealthy or restarting node (5xx). */
export function isTransientStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * A whole request failed for a reason that may pass: connection refused or reset, a timeout, no
 * node alive, or a transient status. A 4xx (bad request, too large) will fail the same way again.
 */
export function isTransientError(error: unknown): boolean {
  if (error instanceof errors.ResponseError) return isTransientStatus(error.statusCode ?? 0);
  return error instanceof errors.ConnectionError || error instanceof errors.TimeoutError || error instanceof errors.NoLivingConnectionsError;
}

/** The HTTP status of a failed request, or the error's class name when there was no response. */
export function errorKind(error: unknown): string {
  if (error instanceof errors.ResponseError) return `HTTP ${error.statusCode ?? '?'}`;
  if (error instanceof Error) return error.name;
  return 'error';
}

/**
 * Exponential backoff with jitter: about `base·2^attempt`, capped, between half and all of it so
 * that clients that failed together do not retry together.
 */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number): number {
  const full = Math.min(maxMs, baseMs * 2 ** attempt);
  return Math.round(full / 2 + (Math.random() * full) / 2);
}

export { sleep } from '../../core/sleep.ts';
