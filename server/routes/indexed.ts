/**
 * What the index knows of one document: its chunks (text, pages, boxes), its sync record (status,
 * content hash) and its dead letters, read from the three indices the Elasticsearch sink writes.
 */
import type { Client } from '@elastic/elasticsearch';
import { DEFAULT_CHUNKS_INDEX, DEFAULT_DOCUMENTS_INDEX, DEFAULT_FAILURES_INDEX } from '../../mappings/index.ts';
import { documentRecordId } from '../../pipeline/sink/index.ts';
import { type RawHit, toSearchHit } from '../../retrieval/index.ts';
import type { ChunkView, FailureView } from './api-types.ts';

export interface IndexedDocument {
  readonly docId: string;
  readonly source: string;
  readonly title?: string;
  /** The content hash the chunks were made from. */
  readonly contentHash?: string;
  readonly status?: string;
  readonly reason?: string;
  readonly chunks: readonly ChunkView[];
  readonly failures: readonly FailureView[];
}

/** The sibling indices the sink names after the chunk index. */
export function siblingIndices(index: string): { documents: string; failures: string } {
  return index === DEFAULT_CHUNKS_INDEX
    ? { documents: DEFAULT_DOCUMENTS_INDEX, failures: DEFAULT_FAILURES_INDEX }
    : { documents: `${index}-documents`, failures: `${index}-failures` };
}

/** Most chunks listed for one document; a longer one is cut (the page view needs only its pages). */
const MAX_CHUNKS = 2000;

/**
 * The indexed document `docId`, or `undefined` when no index holds anything of it. A missing
 * sibling index is not an error: older runs and NDJSON-loaded indices have none.
 */
export async function findIndexed(client: Client, index: string, docId: string): Promise<IndexedDocument | undefined> {
  const { documents, failures } = siblingIndices(index);
  const [chunks, record, dead] = await Promise.all([
    client.search({
      index,
      size: MAX_CHUNKS,
      query: { term: { doc_id: docId } },
      sort: [{ chunk_index: 'asc' }],
      _source: ['text', 'source', 'doc_id', 'title', 'pages', 'heading_path', 'bboxes', 'kind', 'chunk_index', 'content_hash'],
    }),
    client.get<Record<string, unknown>>({ index: documents, id: documentRecordId(index, docId) }, { ignore: [404] }).catch(() => undefined),
    client
      .search<Record<string, unknown>>(
        { index: failures, size: 200, query: { bool: { filter: [{ term: { doc_id: docId } }, { term: { index } }] } } },
        { ignore: [404] },
      )
      .catch(() => undefined),
  ]);
  const hits = chunks.hits.hits as RawHit[];
  const sync = record?.found ? record._source : undefined;
  if (hits.length === 0 && sync === undefined) return undefined;
  const first = (hits[0]?._source ?? {}) as Record<string, unknown>;
  const views: ChunkView[] = hits.map((raw) => {
    const hit = toSearchHit(raw);
    return { id: hit.id, index: hit.chunkIndex ?? 0, pages: hit.pages, headingPath: hit.headingPath, bboxes: hit.bboxes, text: hit.text };
  });
  const failureViews: FailureView[] = (dead?.hits?.hits ?? []).map((hit) => {
    const f = (hit._source ?? {}) as Record<string, unknown>;
    return {
      stage: String(f['stage'] ?? ''),
      code: String(f['code'] ?? ''),
      reason: String(f['reason'] ?? ''),
      ...(typeof f['page_number'] === 'number' ? { pageNumber: f['page_number'] } : {}),
    };
  });
  const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
  const optional = {
    title: text(first['title']),
    contentHash: text(first['content_hash']) ?? text(sync?.['content_hash']),
    status: text(sync?.['status']),
    reason: text(sync?.['reason']),
  };
  return {
    docId,
    source: text(first['source']) ?? text(sync?.['source']) ?? '',
    ...(Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)) as Partial<IndexedDocument>),
    chunks: views,
    failures: failureViews,
  };
}
