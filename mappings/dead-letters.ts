/**
 * Dead letters of the Elasticsearch plugin: the index `folio_failed` sends documents to when the
 * `folio` processor fails (with the reason under `folio_failure` and, by default, the binary
 * kept), its install beside the ingested index's template, and the replay that sends each one
 * through its pipeline again and removes it once it is indexed. A transient cause (a busy or
 * dead server past `max_wait`) then costs a replay, not the document.
 */
import type { Client, estypes } from '@elastic/elasticsearch';
import { ConfigurationError } from '../core/errors.ts';
import deadLettersJson from './dead-letters.json' with { type: 'json' };
import { installIngestedTemplate } from './ingested.ts';

export interface InstallPluginIndicesOptions {
  /** The index the pipeline writes (template pattern: this name). */
  readonly index: string;
  /** @default `${index}-failed` */
  readonly deadLetterIndex?: string;
  /** The field holding the document's binary (kept in dead letters, not indexed). @default 'data' */
  readonly field?: string;
  /** Pipeline run on every write to `index` (`index.default_pipeline`). @default none */
  readonly defaultPipeline?: string;
  /** @default 384 */
  readonly dims?: number;
}

/**
 * The index template for documents the `folio` processor writes, and the dead-letter index
 * (created, with its mapping) where `folio_failed` sends the others. Re-running updates the
 * template and leaves an existing dead-letter index as it is.
 *
 * @example
 * await installPluginIndices(client, { index: 'docs' })   // template `docs`, index `docs-failed`
 */
export async function installPluginIndices(client: Client, options: Readonly<InstallPluginIndicesOptions>): Promise<{ deadLetterIndex: string }> {
  const { index, deadLetterIndex = `${index}-failed`, field = 'data', defaultPipeline, dims } = options;
  if (index === deadLetterIndex)
    throw new ConfigurationError('FOLIO_ES_BAD_OPTION', `Expected \`deadLetterIndex\` to differ from \`index\`, both are \`${index}\``);
  await installIngestedTemplate(client, {
    name: index,
    indexPatterns: [index],
    ...(defaultPipeline === undefined ? {} : { defaultPipeline }),
    ...(dims === undefined ? {} : { dims }),
  });
  const body = structuredClone(deadLettersJson) as unknown as { template: { settings: estypes.IndicesIndexSettings; mappings: estypes.MappingTypeMapping } };
  const properties = body.template.mappings.properties!;
  if (field !== 'data') {
    properties[field] = properties['data']!;
    delete properties['data'];
  }
  // No default pipeline here: a document rerouted to this index would run it.
  const exists = await client.indices.exists({ index: deadLetterIndex });
  if (!exists) {
    await client.indices.create({ index: deadLetterIndex, settings: body.template.settings, mappings: body.template.mappings }, { ignore: [400] });
  }
  return { deadLetterIndex };
}

export interface ReplayOptions {
  /** The dead-letter index. */
  readonly from: string;
  /** The field holding the binary, which must still be there. @default 'data' */
  readonly field?: string;
  /** Only dead letters of this index. @default all */
  readonly index?: string;
  /** Dead letters sent per bulk request. @default 20 */
  readonly batchSize?: number;
  /** At most this many dead letters. @default all */
  readonly limit?: number;
  /** Per dead letter: what became of it. @default no-op */
  readonly onItem?: (item: ReplayItem) => void;
  readonly signal?: AbortSignal;
}

export interface ReplayItem {
  readonly id: string;
  readonly index: string;
  /** `indexed`: in its index now, the dead letter removed; `failed`: dead-lettered again (new reason); `skipped`: nothing to replay from. */
  readonly outcome: 'indexed' | 'failed' | 'skipped';
  readonly reason?: string;
}

export interface ReplayStats {
  readonly indexed: number;
  readonly failed: number;
  readonly skipped: number;
}

interface DeadLetter {
  folio_failure?: { index?: string; pipeline?: string; removed?: string; message?: string };
  [field: string]: unknown;
}

/**
 * Send each dead letter of `from` through the pipeline it failed in, into the index it was meant
 * for, under its own id; remove the dead letter once the document is indexed. A document that
 * fails again goes back to the dead-letter index with its new reason (its pipeline's
 * `on_failure`), so nothing is lost either way.
 *
 * @example
 * const stats = await replayDeadLetters(client, { from: 'docs-failed' })   // { indexed, failed, skipped }
 */
export async function replayDeadLetters(client: Client, options: Readonly<ReplayOptions>): Promise<ReplayStats> {
  const { from, field = 'data', index, batchSize = 20, limit = Number.POSITIVE_INFINITY, onItem = () => {}, signal } = options;
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new ConfigurationError('FOLIO_ES_BAD_OPTION', `Expected \`batchSize\` to be an integer from 1 up, got \`${batchSize}\``);
  const stats = { indexed: 0, failed: 0, skipped: 0 };
  const seen = new Set<string>();
  await client.indices.refresh({ index: from });
  // Replayed letters disappear as we go and one that fails again is rewritten under the same id:
  // each round asks for letters not seen yet, so a run neither skips nor loops.
  for (;;) {
    if (signal?.aborted) break;
    const size = Math.min(batchSize, limit - seen.size);
    if (size <= 0) break;
    const filter: estypes.QueryDslQueryContainer[] = index === undefined ? [] : [{ term: { 'folio_failure.index': index } }];
    const page = await client.search<DeadLetter>({
      index: from,
      size,
      query: { bool: { filter, must_not: [{ ids: { values: [...seen] } }] } },
    });
    const hits = page.hits.hits;
    if (hits.length === 0) break;
    const operations: Record<string, unknown>[] = [];
    const sent: { id: string; target: string }[] = [];
    for (const hit of hits) {
      const id = hit._id!;
      seen.add(id);
      const { folio_failure: failure, ...document } = hit._source ?? {};
      const target = failure?.index;
      if (target === undefined || document[field] === undefined) {
        const reason =
          target === undefined
            ? 'the dead letter names no index (folio_failure.index)'
            : failure?.removed === field
              ? `its field [${field}] was removed when it failed (remove_field); only what the client stored beside it is left`
              : `it has no field [${field}]`;
        stats.skipped++;
        onItem({ id, index: target ?? '', outcome: 'skipped', reason });
        continue;
      }
      operations.push({ index: { _index: target, _id: id, ...(failure?.pipeline ? { pipeline: failure.pipeline } : {}) } }, document);
      sent.push({ id, target });
    }
    if (sent.length === 0) continue;
    const response = await client.bulk({ operations, refresh: 'wait_for' });
    const done: string[] = [];
    response.items.forEach((item, i) => {
      const { id, target } = sent[i]!;
      const result = item.index!;
      if (result.error !== undefined) {
        // Refused before or after the pipeline (e.g. indexing pressure): the dead letter stays.
        stats.failed++;
        onItem({ id, index: target, outcome: 'failed', reason: `${result.error.type}: ${result.error.reason ?? ''}` });
      } else if (result._index === target) {
        done.push(id);
        stats.indexed++;
        onItem({ id, index: target, outcome: 'indexed' });
      } else {
        stats.failed++;
        onItem({ id, index: target, outcome: 'failed', reason: `dead-lettered again into ${result._index}` });
      }
    });
    if (done.length > 0) await client.bulk({ operations: done.map((id) => ({ delete: { _index: from, _id: id } })), refresh: 'wait_for' });
  }
  return stats;
}
