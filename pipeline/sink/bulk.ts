/**
 * One `_bulk` request with the retry rules of the client's bulk helper: whole-request transient
 * faults and per-item 429s are sent again with exponential backoff, a bounded number of times;
 * everything else is final. The caller gets one outcome per operation, never an exception.
 */
import type { Client, estypes } from '@elastic/elasticsearch';
import { describeError } from '../../core/errors.ts';
import { backoffDelay, errorKind, isTransientError, sleep } from './retry.ts';

/** An action line and its document line, serialised once (so size is known before sending). */
export interface BulkOperation {
  /** `{"index":{…}}\n{…document…}` without the final newline. */
  readonly payload: string;
}

export type BulkOutcome = { readonly ok: true } | { readonly ok: false; readonly code: string; readonly reason: string; readonly status?: number };

export interface SendBulkOptions {
  /** How many times to send again after a transient fault. */
  readonly retries: number;
  readonly retryDelayMs: number;
  readonly maxRetryDelayMs: number;
  readonly signal?: AbortSignal | undefined;
  /** Called before each resend. */
  readonly onRetry?: (attempt: number, reason: string) => void;
}

/**
 * Send `operations` as `_bulk` requests until each has succeeded or definitely failed.
 *
 * @example
 * const outcomes = await sendBulk(client, ops, { retries: 3, retryDelayMs: 500, maxRetryDelayMs: 10_000 })
 */
export async function sendBulk(client: Client, operations: readonly BulkOperation[], options: Readonly<SendBulkOptions>): Promise<BulkOutcome[]> {
  const { retries, retryDelayMs, maxRetryDelayMs, signal, onRetry } = options;
  const outcomes: BulkOutcome[] = new Array<BulkOutcome>(operations.length);
  let pending = operations.map((_, i) => i);
  for (let attempt = 0; ; attempt += 1) {
    if (signal?.aborted) {
      for (const i of pending) outcomes[i] = { ok: false, code: 'FOLIO_ABORTED', reason: `aborted: ${describeError(signal.reason)}` };
      return outcomes;
    }
    let response: estypes.BulkResponse;
    try {
      response = await client.bulk(
        // Pre-serialised lines: the client's serializer passes strings through unchanged.
        { operations: pending.map((i) => operations[i]!.payload) as unknown as estypes.BulkOperationContainer[] },
        signal === undefined ? {} : { signal },
      );
    } catch (error) {
      const reason = `${errorKind(error)}: ${describeError(error)}`;
      if (isTransientError(error) && attempt < retries && !signal?.aborted) {
        onRetry?.(attempt + 1, reason);
        await wait(attempt, retryDelayMs, maxRetryDelayMs, signal, error);
        continue;
      }
      const transient = isTransientError(error);
      const code = signal?.aborted ? 'FOLIO_ABORTED' : transient ? 'FOLIO_ES_TRANSPORT' : 'FOLIO_ES_BULK_REJECTED';
      const suffix = transient ? ` (gave up after ${attempt + 1} attempts)` : '';
      for (const i of pending) outcomes[i] = { ok: false, code, reason: `${reason}${suffix}` };
      return outcomes;
    }
    const again: number[] = [];
    response.items.forEach((item, position) => {
      const i = pending[position];
      if (i === undefined) return;
      const result = item.index ?? item.create ?? item.update ?? item.delete;
      const status = result?.status ?? 0;
      if (status >= 200 && status < 300) {
        outcomes[i] = { ok: true };
      } else if (status === 429 && attempt < retries) {
        again.push(i);
      } else {
        const error = result?.error;
        const reason = error === undefined ? `status ${status}` : `${error.type}: ${error.reason ?? ''}`.trim();
        const code = status === 429 ? 'FOLIO_ES_TOO_MANY_REQUESTS' : 'FOLIO_ES_DOCUMENT_REJECTED';
        outcomes[i] = { ok: false, code, reason: status === 429 ? `${reason} (gave up after ${attempt + 1} attempts)` : reason, status };
      }
    });
    // Fewer items than operations would be a server bug; never let an operation go unaccounted.
    for (const i of pending.slice(response.items.length))
      outcomes[i] = { ok: false, code: 'FOLIO_ES_BULK_REJECTED', reason: 'no result for the operation in the bulk response' };
    if (again.length === 0) return outcomes;
    onRetry?.(attempt + 1, `${again.length} operations rejected with 429`);
    await wait(attempt, retryDelayMs, maxRetryDelayMs, signal);
    pending = again;
  }
}

/** Back off; false when aborted (the loop head then records the abort). */
async function wait(attempt: number, baseMs: number, maxMs: number, signal: AbortSignal | undefined, error?: unknown): Promise<boolean> {
  try {
    await sleep(backoffDelay(attempt, baseMs, maxMs, error), signal);
    return true;
  } catch {
    return false;
  }
}
