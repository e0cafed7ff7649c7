/**
 * The clean-ups of a sync: documents that are gone from their source lose their chunks, their
 * record and their dead letters (as Elastic's connectors do in a full sync), their attachments
 * (child documents) with them; attachments a changed document no longer has go the same way; and
 * documents that now succeed lose the dead letters of earlier runs. Search + bulk delete rather than
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
/** Parents per search for their attachments. */
const GROUP = 100;
/** Levels of attachments followed: past the ten the pipeline converts, so every level is found. */
const MAX_LEVELS = 16;

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
  const should = scope.prefixes.map((prefix) => ({ prefix: { source: prefix } }));
  const listed = await listRecords(client, names, { bool: { should, minimum_should_match: 1 } });
  // An attachment is in no listing: it goes with its parent, found below.
  const gone = listed.filter((record) => record.parentId === undefined && scope.isGone(record.source));
  const removed = [...gone, ...(await descendants(client, names, gone))];
  await removeDocuments(client, names, removed, send);
  return { removed: removed.length, sources: removed.slice(0, 100).map((doc) => doc.source) };
}

/**
 * Remove the children (attachments) that parents written by this run no longer have: each entry
 * is a parent and the children it has now. Resolves to failure records for the groups it could
 * not clean; never rejects.
 *
 * @example
 * const problems = await removeOrphans(client, names, [['mail-id', ['report-id']]], send)
 */
export async function removeOrphans(
  client: Client,
  names: Readonly<PruneIndices>,
  parents: readonly (readonly [parentId: string, children: readonly string[]])[],
  send: Readonly<SendBulkOptions>,
): Promise<FailureRecord[]> {
  const problems: FailureRecord[] = [];
  for (let i = 0; i < parents.length; i += GROUP) {
    const group = new Map(parents.slice(i, i + GROUP).map(([parent, children]) => [parent, new Set(children)]));
    try {
      const found = await listRecords(client, names, { terms: { parent_id: [...group.keys()] } });
      const orphans = found.filter((record) => !group.get(record.parentId ?? '')?.has(record.docId));
      await removeDocuments(client, names, [...orphans, ...(await descendants(client, names, orphans))], send);
    } catch (error) {
      // The old attachments stay findable, which is wrong but visible; recorded, not thrown.
      problems.push({
        source: names.documentsIndex,
        stage: 'index',
        code: 'FOLIO_ES_PRUNE',
        reason: `could not remove the attachments ${[...group.keys()].join(', ')} no longer have from ${names.index}: ${describeError(error)}`,
        at: new Date().toISOString(),
      });
    }
  }
  return problems;
}

/** A document's sync record, as much of it as a prune needs. */
interface ListedRecord {
  readonly id: string;
  readonly docId: string;
  readonly source: string;
  readonly parentId?: string;
}

/** The sync records of `names.index` that `query` matches, page by page. */
async function listRecords(client: Client, names: Readonly<PruneIndices>, query: estypes.QueryDslQueryContainer): Promise<ListedRecord[]> {
  const out: ListedRecord[] = [];
  let after: estypes.SortResults | undefined;
  for (;;) {
    const page = await client.search<DocumentRecord>({
      index: names.documentsIndex,
      size: PAGE,
      _source: ['doc_id', 'source', 'parent_id'],
      sort: [{ doc_id: 'asc' }],
      ...(after === undefined ? {} : { search_after: after }),
      query: { bool: { filter: [{ term: { index: names.index } }, query] } },
    });
    for (const hit of page.hits.hits) {
      const record = hit._source;
      if (record === undefined || hit._id === undefined) continue;
      out.push({ id: hit._id, docId: record.doc_id, source: record.source, ...(record.parent_id === undefined ? {} : { parentId: record.parent_id }) });
    }
    if (page.hits.hits.length < PAGE) break;
    after = page.hits.hits.at(-1)?.sort;
  }
  return out;
}

/** The attachments of `docs`, and theirs, level by level (bounded: a record naming itself cannot loop). */
async function descendants(client: Client, names: Readonly<PruneIndices>, docs: readonly ListedRecord[]): Promise<ListedRecord[]> {
  const out: ListedRecord[] = [];
  const seen = new Set(docs.map((doc) => doc.docId));
  let level = [...seen];
  for (let depth = 0; depth < MAX_LEVELS && level.length > 0; depth++) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += GROUP) {
      for (const child of await listRecords(client, names, { terms: { parent_id: level.slice(i, i + GROUP) } })) {
        if (seen.has(child.docId)) continue;
        seen.add(child.docId);
        out.push(child);
        next.push(child.docId);
      }
    }
    level = next;
  }
  return out;
}

/** Delete the chunks and dead letters of `docs`, then their records. */
async function removeDocuments(client: Client, names: Readonly<PruneIndices>, docs: readonly ListedRecord[], send: Readonly<SendBulkOptions>): Promise<void> {
  for (let i = 0; i < docs.length; i += DOCS_PER_SEARCH) {
    const group = docs.slice(i, i + DOCS_PER_SEARCH).map((doc) => doc.docId);
    await deleteMatching(client, names.index, { terms: { doc_id: group } }, send);
    await deleteMatching(client, names.failuresIndex, { bool: { filter: [{ term: { index: names.index } }, { terms: { doc_id: group } }] } }, send);
  }
  // The records last: if anything above failed, the next run finds them and tries again.
  await deleteIds(
    client,
    docs.map((doc) => ({ index: names.documentsIndex, id: doc.id })),
    send,
  );
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
