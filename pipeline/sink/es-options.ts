/** Options of the Elasticsearch sink, their defaults and their validation. */
import type { Client } from '@elastic/elasticsearch';
import { ConfigurationError } from '../../core/errors.ts';

export interface EsSinkOptions {
  /** The cluster, e.g. `http://127.0.0.1:9200`. One of `url` and `client` is required. */
  readonly url?: string;
  /** A configured client (auth, TLS, cloud id); the sink does not close it. */
  readonly client?: Client;
  /** The chunk index (or alias). @default 'folio-chunks' */
  readonly index?: string;
  /** Document sync state. @default 'folio-documents' for the default index, else `${index}-documents` */
  readonly documentsIndex?: string;
  /** Dead letters. @default 'folio-failures' for the default index, else `${index}-failures` */
  readonly failuresIndex?: string;
  /**
   * Vector size of the embedding model. When left out: the existing index's, else the first
   * chunk's vector length, else 384.
   * @default undefined
   */
  readonly dims?: number;
  /** Send a bulk request once this many bytes are buffered. @default 5000000 */
  readonly flushBytes?: number;
  /** Send what is buffered after this long, however little. @default 1000 */
  readonly flushIntervalMs?: number;
  /** Bulk requests in flight at once; `write` waits for a free slot beyond that. @default 2 */
  readonly concurrency?: number;
  /** Resends after a transient fault (429, 5xx, connection lost, timeout). @default 3 */
  readonly retries?: number;
  /** First backoff; it doubles per attempt. @default 500 */
  readonly retryDelayMs?: number;
  /** Longest backoff. @default 10000 */
  readonly maxRetryDelayMs?: number;
  /** Per-request timeout of the client made from `url`. @default 30000 */
  readonly requestTimeoutMs?: number;
  /** Where failure records go when the failures index cannot take them. @default 'folio-out/failures.jsonl' */
  readonly fallbackFile?: string;
  /** Refresh the chunk index on close so a search right after sees everything. @default true */
  readonly refreshOnClose?: boolean;
  /** Stops retries and waits; what is not stored yet is recorded as failed (`FOLIO_ABORTED`). */
  readonly signal?: AbortSignal;
}

export function checkInteger(option: string, value: unknown, min: number): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new ConfigurationError(
      'FOLIO_SINK_BAD_OPTION',
      `Expected \`${option}\` to be an integer from ${min} and up, got \`${String(value)}\` (${typeof value})`,
    );
  }
}

/** Validate every numeric option up front, naming the option and the value. */
export function validateEsSinkOptions(options: Readonly<EsSinkOptions>): void {
  if (options.url === undefined && options.client === undefined) {
    throw new ConfigurationError('FOLIO_SINK_BAD_OPTION', 'Expected `url` or `client` for the Elasticsearch sink, got neither');
  }
  if (options.url !== undefined && (typeof options.url !== 'string' || !URL.canParse(options.url))) {
    throw new ConfigurationError('FOLIO_SINK_BAD_OPTION', `Expected \`url\` to be an http(s) URL, got \`${String(options.url)}\` (${typeof options.url})`);
  }
  const integers: readonly [keyof EsSinkOptions, number][] = [
    ['flushBytes', 1],
    ['flushIntervalMs', 1],
    ['concurrency', 1],
    ['retries', 0],
    ['retryDelayMs', 0],
    ['maxRetryDelayMs', 0],
    ['requestTimeoutMs', 1],
    ['dims', 1],
  ];
  for (const [option, min] of integers) {
    if (options[option] !== undefined) checkInteger(option, options[option], min);
  }
}
