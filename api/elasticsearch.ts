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
export {
  installMappings, templateName, indexBody, MAPPING_VERSION, DEFAULT_CHUNKS_INDEX, DEFAULT_DOCUMENTS_INDEX, DEFAULT_FAILURES_INDEX, DEFAULT_DIMS,
  BULK_LOAD_REFRESH, chunkRefreshInterval, restoreRefresh, restoreStaleRefresh,
} from '../mappings/index.ts';
export type { InstallMappingsOptions, InstallResult, IndexBody, IndexRole } from '../mappings/index.ts';
export { createEsSink, chunkToDocument, documentRecord, documentRecordId, failureToDocument, failureId } from '../pipeline/sink/index.ts';
export type { EsSinkOptions, ChunkDocument, DocumentRecord, FailureDocument, DocumentMark } from '../pipeline/sink/index.ts';
// From the retrieval files themselves, not `retrieval/index.ts`: that one also carries the
// LangChain classes, and this entry must load without `@langchain/core` installed.
export { hybridSearch, DEFAULT_INDEX } from '../retrieval/search.ts';
export { SEARCH_MODES } from '../retrieval/types.ts';
export type { HybridSearchOptions, SearchHit, SearchFilters, SearchMode } from '../retrieval/types.ts';
export { reciprocalRankFusion } from '../retrieval/rrf.ts';
export type { RrfOptions, FusedItem } from '../retrieval/rrf.ts';
export { bm25Body, knnBody, filterClauses, HIT_SOURCE_FIELDS } from '../retrieval/query.ts';
export type { Bm25BodyOptions, KnnBodyOptions } from '../retrieval/query.ts';
export { toSearchHit } from '../retrieval/hits.ts';
export type { RawHit } from '../retrieval/hits.ts';
export { formatContext, formatPages, citation } from '../retrieval/context.ts';
export type { FormatContextOptions } from '../retrieval/context.ts';
export { ask, askMessages } from '../retrieval/ask.ts';
export type { AskOptions, AskResult, LlmOptions } from '../retrieval/ask.ts';
export { withClient } from '../retrieval/client.ts';
export type { ClientOptions } from '../retrieval/client.ts';
