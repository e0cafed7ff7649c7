/**
 * When a document changes and gets shorter, its chunks past the new end must go, or searches
 * keep finding text the document no longer has.
 */
import type { Client } from '@elastic/elasticsearch';
import { describeError } from '../../core/errors.ts';
import type { FailureRecord } from '../../core/types.ts';
import type { SendBulkOptions } from './bulk.ts';
import { sendBulk } from './bulk.ts';

/** Documents per search: keeps the bool query small. */
const GROUP = 100;

/**
 * Delete the chunks with `chunk_index ≥ count` of each `[docId, count]`. Search + bulk delete
 * rather than `_delete_by_query`, which minimal servers (no reindex module) do not have. Resolves
 * to failure records for the groups it could not clean; never rejects.
 *
 * @example
 * const problems = await deleteStaleChunks(client, 'folio-chunks', [['doc-a', 3]], sendOptions)
 */
export async function deleteStaleChunks(
  client: Client,
  index: string,
  entries: readonly (readonly [docId: string, count: number])[],
  send: Readonly<SendBulkOptions>,
): Promise<FailureRecord[]> {
  const problems: FailureRecord[] = [];
  for (let i = 0; i < entries.length; i += GROUP) {
    const group = entries.slice(i, i + GROUP);
    const should = group.map(([docId, count]) => ({
      bool: { filter: [{ term: { doc_id: docId } }, { range: { chunk_index: { gte: count } } }] },
    }));
    try {
      // A document has at most a few thousand chunks, so one page of ids covers a group.
      const found = await client.search({ index, size: 10_000, _source: false, query: { bool: { should, minimum_should_match: 1 } } });
      const operations = found.hits.hits.map((hit) => ({ payload: JSON.stringify({ delete: { _index: hit._index, _id: hit._id } }) }));
      if (operations.length === 0) continue;
      const outcomes = await sendBulk(client, operations, send);
      // 404: already gone, which is what we wanted.
      const failed = outcomes.find((outcome) => !outcome.ok && outcome.status !== 404);
      if (failed !== undefined && !failed.ok) throw new Error(failed.reason);
    } catch (error) {
      // Stale chunks stay findable, which is wrong but visible; record it instead of failing the run.
      problems.push({
        source: index,
        stage: 'index',
        code: 'FOLIO_ES_STALE_DELETE',
        reason: `could not delete stale chunks of ${group.map(([docId]) => docId).join(', ')} from ${index}: ${describeError(error)}`,
        at: new Date().toISOString(),
      });
    }
  }
  return problems;
}
