/** Records and options of Folio's search side. */
import type { Client } from '@elastic/elasticsearch';
import type { BBox } from '../core/types.ts';
import type { Embedder } from '../inference/embed/index.ts';

export type SearchMode = 'hybrid' | 'bm25' | 'knn';
/** How the BM25 list reads the query: as plain words, or in Lucene query-string syntax (`kind:table AND "stop nut"`). */
export type QuerySyntax = 'plain' | 'lucene';
export const QUERY_SYNTAXES: readonly QuerySyntax[] = ['plain', 'lucene'];
export const SEARCH_MODES: readonly SearchMode[] = ['hybrid', 'bm25', 'knn'];

/** Restricts every list (BM25 and kNN) before ranking. */
export interface SearchFilters {
  /** One source (as indexed: path or URL) or any of several. */
  readonly source?: string | readonly string[];
  /** Element kinds (`table`, `paragraph`, …): chunks containing any of them. */
  readonly kind?: string | readonly string[];
  /** A page, any of several pages, or an inclusive range. */
  readonly pages?: number | readonly number[] | { readonly from?: number; readonly to?: number };
  /** One document id or any of several. */
  readonly docId?: string | readonly string[];
}

/** One chunk found, with what a citation needs. */
export interface SearchHit {
  /** The chunk's id (`_id`). */
  readonly id: string;
  /** Fused RRF score in hybrid mode, else the engine's own score. */
  readonly score: number;
  readonly text: string;
  readonly source: string;
  readonly docId: string;
  /** The document this one is attached to (an e-mail's attachment names its message). */
  readonly parentId?: string;
  readonly title?: string;
  readonly pages: readonly number[];
  /** Where in a sheet or deck the chunk's text sits: sheet name and cell range, slide number. */
  readonly locations?: readonly { readonly sheet?: string; readonly range?: string; readonly slide?: number }[];
  readonly headingPath: readonly string[];
  readonly bboxes: readonly { readonly page: number; readonly bbox: BBox }[];
  /** Element kinds in the chunk. */
  readonly kind: readonly string[];
  readonly chunkIndex?: number;
  /** Line range of the chunk in the document's Markdown (LangChain's `loc.lines`). */
  readonly lines?: { readonly from: number; readonly to: number };
  readonly quality?: number;
  /** 1-based rank of the chunk in each list it came from. */
  readonly ranks: { readonly bm25?: number; readonly knn?: number };
  /** The engine's own score in each list it came from (BM25 score, kNN similarity), beside the fused `score`. */
  readonly scores?: { readonly bm25?: number; readonly knn?: number };
}

export interface HybridSearchOptions {
  /** Elasticsearch URL. @default process.env.ELASTICSEARCH_URL */
  readonly url?: string;
  /** A client to reuse instead of `url` (it is not closed). */
  readonly client?: Client;
  /** Index or alias. @default 'folio-chunks' */
  readonly index?: string;
  readonly query: string;
  /** Hits returned. @default 10 */
  readonly k?: number;
  /** Embeds the query for kNN; must be the model the index was built with. @default the bundled local model, loaded for this call */
  readonly embedder?: Embedder;
  readonly filters?: SearchFilters;
  /** @default 'hybrid' */
  readonly mode?: SearchMode;
  /** How deep each list goes before fusion. @default max(50, 2k) */
  readonly rankWindow?: number;
  /** kNN candidates per shard. @default max(100, 2 × rankWindow) */
  readonly numCandidates?: number;
  /** RRF constant. @default 60 */
  readonly rrfK?: number;
  /** Text fields BM25 searches, with optional `^boost`. @default ['text'] */
  readonly fields?: readonly string[];
  /** `lucene` parses the query as a Lucene query string; a syntax error then rejects with Elasticsearch's reason. @default 'plain' */
  readonly syntax?: QuerySyntax;
  /**
   * The path of a `nested` chunks field, for an index of whole documents (what the Elasticsearch
   * plugin writes: `folio.chunks`); the hits are then the matching chunks. @default undefined (one chunk per document)
   */
  readonly nested?: string;
  readonly signal?: AbortSignal;
}
