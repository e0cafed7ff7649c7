/**
 * The two clean-ups of a sync: documents that are gone from their source lose their chunks, their
 * record and their dead letters (as Elastic's connectors do in a full sync), and documents that
 * now succeed lose the dead letters of earlier runs. Search + bulk delete rather than
 * `_delete_by_query`, which minimal servers (no reindex module) do not have.
 */
import type { Client, estypes } from '@elastic/elasticsearch';
import { describeError } from '../../core/errors.ts';
import type { FailureRecord } from '../../core/types.ts';
import type { SendBulkOptions } from './bulk.ts';
import { sendBulk } from './bulk.ts';
import type { DocumentRecord } from './documents.ts';
import type { PruneResult, PruneScope } from './types.ts';

export interface PruneIndices {
  readonly index: string;
  readonly documentsIndex: string;
  readonly failuresIndex: string;
}

/** Records per page when listing a scope's documents. */
const PAGE = 5000;
/** Documents per chunk search: a document has at most a few thousand chunks, a search returns 10,000. */
const DOCS_PER_SEARCH = 5;

/**
 * Remove every document recorded for `names.index` under `scope.prefixes` that `scope.isGone`
 * says is gone. Throws (an IndexingError from the caller's view) when a step fails: a half-done
 * prune is redone by the next run, since the document record is deleted last.
 *
 * @example
 * const { removed } = await pruneGone(client, names, { prefixes: ['file:///docs/'], isGone }, send)
 */
export async function pruneGone(
  client: Client,
  names: Readonly<PruneIndices>,
  scope: Readonly<PruneScope>,
  send: Readonly<SendBulkOptions>,
): Promise<PruneResult> {
  if (scope.prefixes.length === 0) return { removed: 0, sources: [] };
  const gone: { id: string; docId: string; source: string }[] = [];
  const should = scope.prefixes.map((prefix) => ({ prefix: { source: prefix } }));
  let after: estypes.SortResults | undefined;
  for (;;) {
    const page = await client.search<DocumentRecord>({
      index: names.documentsIndex,
      size: PAGE,
      _source: ['doc_id', 'source'],
      sort: [{ doc_id: 'asc' }],
      ...(after === undefined ? {} : { search_after: after }),
      query: { bool: { filter: [{ term: { index: names.index } }, { bool: { should, minimum_should_match: 1 } }] } },
    });
    for (const hit of page.hits.hits) {
      const record = hit._source;
      if (record !== undefined && hit._id !== undefined && scope.isGone(record.source)) gone.push({ id: hit._id, docId: record.doc_id, source: record.source });
    }
    if (page.hits.hits.length < PAGE) break;
    after = page.hits.hits.at(-1)?.sort;
  }
  for (let i = 0; i < gone.length; i += DOCS_PER_SEARCH) {
    const group = gone.slice(i, i + DOCS_PER_SEARCH).map((doc) => doc.docId);
    await deleteMatching(client, names.index, { terms: { doc_id: group } }, send);
    await deleteMatching(client, names.failuresIndex, { bool: { filter: [{ term: { index: names.index } }, { terms: { doc_id: group } }] } }, send);
  }
  // The records last: if anything above failed, the next run finds them and tries again.
  await deleteIds(
    client,
    gone.map((doc) => ({ index: names.documentsIndex, id: doc.id })),
    send,
  );
  return { removed: gone.length, sources: gone.slice(0, 100).map((doc) => doc.source) };
}

/**
 * Delete the dead letters that runs before `before` recorded for `docIds`, documents that have now
 * been indexed: the same failure recorded again by this run has a newer `at` and stays.
 */
export async function clearResolvedFailures(
  client: Client,
  names: Readonly<PruneIndices>,
  docIds: readonly string[],
  before: string,
  send: Readonly<SendBulkOptions>,
): Promise<FailureRecord[]> {
  const problems: FailureRecord[] = [];
  for (let i = 0; i < docIds.length; i += 500) {
    const group = docIds.slice(i, i + 500);
    try {
      await deleteMatching(
        client,
        names.failuresIndex,
        {
          bool: { filter: [{ term: { index: names.index } }, { terms: { doc_id: group } }, { range: { at: { lt: before } } }] },
        },
        send,
      );
    } catch (error) {
      // The old dead letters stay, which is wrong but visible; record it instead of failing the run.
      problems.push({
        source: names.failuresIndex,
        stage: 'index',
        code: 'FOLIO_ES_CLEAR_FAILURES',
        reason: `could not clear the resolved failure records of ${group.length} documents from ${names.failuresIndex}: ${describeError(error)}`,
        at: new Date().toISOString(),
      });
    }
  }
  return problems;
}

/** Delete what `query` matches in `index`, page by page (at most 10,000 per search). */
async function deleteMatching(client: Client, index: string, query: estypes.QueryDslQueryContainer, send: Readonly<SendBulkOptions>): Promise<void> {
  let after: estypes.SortResults | undefined;
  for (;;) {
    const found = await client.search(
      {
        index,
        size: 10_000,
        _source: false,
        sort: ['_doc'],
        query,
        ...(after === undefined ? {} : { search_after: after }),
      },
      { ignore: [404] },
    );
    const hits = found.hits?.hits ?? [];
    await deleteIds(
      client,
      hits.map((hit) => ({ index: hit._index, id: hit._id! })),
      send,
    );
    if (hits.length < 10_000) return;
    after = hits.at(-1)?.sort;
  }
}

async function deleteIds(client: Client, ids: readonly { index: string; id: string }[], send: Readonly<SendBulkOptions>): Promise<void> {
  if (ids.length === 0) return;
  const outcomes = await sendBulk(
    client,
    ids.map(({ index, id }) => ({ payload: JSON.stringify({ delete: { _index: index, _id: id } }) })),
    send,
  );
  // 404: already gone, which is what we wanted.
  const failed = outcomes.find((outcome) => !outcome.ok && outcome.status !== 404);
  if (failed !== undefined && !failed.ok) throw new Error(failed.reason);
}
