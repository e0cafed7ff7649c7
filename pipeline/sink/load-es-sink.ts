/**
 * The Elasticsearch sink, loaded on first use: the client costs about a third of a second of
 * start-up, which a run that writes NDJSON files, or never indexes, should not pay.
 */
import type { EsSinkOptions } from './es-options.ts';
import type { Sink } from './types.ts';

/**
 * Connect, check the cluster answers (else a ConfigurationError `FOLIO_ES_UNREACHABLE` naming
 * the URL) and install the mappings; then stream chunks into the index. See `es-sink.ts`.
 *
 * @example
 * const sink = await createEsSink({ url: 'http://127.0.0.1:9200', dims: 384 })
 * for (const chunk of chunks) await sink.write(chunk)
 * const stats = await sink.close()
 */
export async function createEsSink(options: Readonly<EsSinkOptions>): Promise<Sink> {
  const { createEsSink: create } = await import('./es-sink.ts');
  return create(options);
}
