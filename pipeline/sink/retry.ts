/**
 * The sink's view of the one retry policy (`core/retry.ts`): which Elasticsearch faults are worth
 * another try, how long to wait, and how a failed request is named in messages.
 */
import { errors } from '@elastic/elasticsearch';
import { backoffMs, carriedRetryAfter } from '../../core/retry.ts';

export { isTransientError, isTransientStatus } from '../../core/retry.ts';

/** The HTTP status of a failed request, or the error's class name when there was no response. */
export function errorKind(error: unknown): string {
  if (error instanceof errors.ResponseError) return `HTTP ${error.statusCode ?? '?'}`;
  if (error instanceof Error) return error.name;
  return 'error';
}

/**
 * The wait before retry `attempt + 1` (0-based `attempt`, as the sink's loops count): the core
 * policy's jittered exponential backoff, at least a `Retry-After` the error carries.
 */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, error?: unknown): number {
  return backoffMs({ retries: 0, baseDelayMs: baseMs, maxDelayMs: maxMs }, attempt + 1, error === undefined ? undefined : carriedRetryAfter(error));
}

export { sleep } from '../../core/sleep.ts';
