/**
 * `@folio-ocr/folio/elasticsearch`: everything that talks to Elasticsearch. The index templates
 * and mappings (installed idempotently), the bulk sink `ingest` writes chunks through, and
 * hybrid search (BM25 + kNN fused by reciprocal rank fusion) with `ask`'s cited context.
 *
 * @example
 * import { Client } from '@elastic/elasticsearch';
 * import { installMappings, hybridSearch } from '@folio-ocr/folio/elasticsearch';
 * await installMappings(new Client({ node: 'http://127.0.0.1:9200' }));
 * const hits = await hybridSearch({ url: 'http://127.0.0.1:9200', query: 'speculative decoding', mode: 'bm25' });
 */

// First: on a Node older than the package supports, this fails at once naming both versions.
import '../core/require-node.ts';

export type { IndexBody, IndexRole, InstallMappingsOptions, InstallResult } from '../mappings/index.ts';
export {
  BULK_LOAD_REFRESH,
  chunkRefreshInterval,
  DEFAULT_CHUNKS_INDEX,
  DEFAULT_DIMS,
  DEFAULT_DOCUMENTS_INDEX,
  DEFAULT_FAILURES_INDEX,
  indexBody,
  installMappings,
  MAPPING_VERSION,
  restoreRefresh,
  restoreStaleRefresh,
  templateName,
} from '../mappings/index.ts';
export type { ChunkDocument, DocumentMark, DocumentRecord, EsSinkOptions, FailureDocument } from '../pipeline/sink/index.ts';
export { chunkToDocument, createEsSink, documentRecord, documentRecordId, failureId, failureToDocument } from '../pipeline/sink/index.ts';
export type { AskOptions, AskResult, LlmOptions } from '../retrieval/ask.ts';
export { ask, askMessages } from '../retrieval/ask.ts';
export type { ClientOptions } from '../retrieval/client.ts';
export { withClient } from '../retrieval/client.ts';
export type { FormatContextOptions } from '../retrieval/context.ts';
export { citation, formatContext, formatPages } from '../retrieval/context.ts';
export type { RawHit } from '../retrieval/hits.ts';
export { toSearchHit } from '../retrieval/hits.ts';
export type { Bm25BodyOptions, KnnBodyOptions } from '../retrieval/query.ts';
export { bm25Body, filterClauses, HIT_SOURCE_FIELDS, knnBody } from '../retrieval/query.ts';
export type { FusedItem, RrfOptions } from '../retrieval/rrf.ts';
export { reciprocalRankFusion } from '../retrieval/rrf.ts';
// From the retrieval files themselves, not `retrieval/index.ts`: that one also carries the
// LangChain classes, and this entry must load without `@langchain/core` installed.
export { DEFAULT_INDEX, hybridSearch } from '../retrieval/search.ts';
export type { HybridSearchOptions, SearchFilters, SearchHit, SearchMode } from '../retrieval/types.ts';
export { SEARCH_MODES } from '../retrieval/types.ts';
