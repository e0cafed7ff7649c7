/** A LangChain retriever over the Folio chunk index (hybrid BM25 + kNN, fused by RRF). */
import type { Client } from '@elastic/elasticsearch';
import type { CallbackManagerForRetrieverRun } from '@langchain/core/callbacks/manager';
import type { Document } from '@langchain/core/documents';
import type { BaseRetrieverInput } from '@langchain/core/retrievers';
import { BaseRetriever } from '@langchain/core/retrievers';
import type { Embedder } from '../../inference/embed/index.ts';
import { hybridSearch } from '../search.ts';
import type { SearchFilters, SearchMode } from '../types.ts';
import { FolioEmbeddings } from './embeddings.ts';
import type { FolioDocumentMetadata } from './metadata.ts';
import { hitToDocument } from './metadata.ts';

export interface FolioRetrieverOptions extends BaseRetrieverInput {
  /** @default process.env.ELASTICSEARCH_URL */
  readonly url?: string;
  readonly client?: Client;
  /** @default 'folio-chunks' */
  readonly index?: string;
  /** Documents returned. @default 5 */
  readonly k?: number;
  /** @default 'hybrid' */
  readonly mode?: SearchMode;
  readonly filters?: SearchFilters;
  /** The nested chunks path of a plugin-ingested index (`folio.chunks`). @default undefined (a Folio chunk index) */
  readonly nested?: string;
  /** Embeds queries; a {@link FolioEmbeddings} or a Folio embedder. @default a shared FolioEmbeddings (local model) */
  readonly embeddings?: FolioEmbeddings | Embedder;
}

/**
 * @example
 * const retriever = new FolioRetriever({ url: 'http://127.0.0.1:9200', k: 4, filters: { kind: 'table' } });
 * const docs = await retriever.invoke('Which model wins on PubTabNet?');
 */
export class FolioRetriever extends BaseRetriever<FolioDocumentMetadata> {
  static override lc_name() {
    return 'FolioRetriever';
  }

  lc_namespace = ['folio', 'retrievers'];

  readonly #options: Omit<FolioRetrieverOptions, keyof BaseRetrieverInput | 'embeddings'>;
  readonly #embeddings: FolioEmbeddings | Embedder;

  constructor(options: Readonly<FolioRetrieverOptions> = {}) {
    const { callbacks, tags, metadata, verbose, embeddings, ...search } = options;
    super({ callbacks, tags, metadata, verbose });
    this.#options = { k: 5, ...search };
    this.#embeddings = embeddings ?? new FolioEmbeddings();
  }

  override async _getRelevantDocuments(query: string, _runManager?: CallbackManagerForRetrieverRun): Promise<Document<FolioDocumentMetadata>[]> {
    const embedder = this.#embeddings instanceof FolioEmbeddings ? await this.#embeddings.embedder() : this.#embeddings;
    const hits = await hybridSearch({ ...this.#options, query, ...(this.#options.mode === 'bm25' ? {} : { embedder }) });
    return hits.map(hitToDocument);
  }
}
