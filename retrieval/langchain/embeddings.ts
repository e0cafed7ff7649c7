/** Folio's embedders (local ONNX or remote) as LangChain `Embeddings`, for any LangChain vector store. */

import type { EmbeddingsParams } from '@langchain/core/embeddings';
import { Embeddings } from '@langchain/core/embeddings';
import type { Embedder, LocalEmbedderOptions } from '../../inference/embed/index.ts';
import { createLocalEmbedder } from '../../inference/embed/index.ts';

export interface FolioEmbeddingsOptions extends EmbeddingsParams {
  /** An embedder to use (not closed by {@link FolioEmbeddings.close}). @default a local one built from `local` on first use */
  readonly embedder?: Embedder;
  /** Options for the local embedder when `embedder` is not given. @default {} */
  readonly local?: LocalEmbedderOptions;
}

/**
 * @example
 * const embeddings = new FolioEmbeddings();
 * const vector = await embeddings.embedQuery('How is a table header detected?');
 * await embeddings.close();
 */
export class FolioEmbeddings extends Embeddings<number[]> {
  readonly #given: Embedder | undefined;
  readonly #local: LocalEmbedderOptions;
  #own: Promise<Embedder> | undefined;

  constructor(options: Readonly<FolioEmbeddingsOptions> = {}) {
    const { embedder, local = {}, ...params } = options;
    super(params);
    this.#given = embedder;
    this.#local = local;
  }

  /** The underlying embedder, loading the local model on first call. */
  async embedder(): Promise<Embedder> {
    if (this.#given) return this.#given;
    // Share one load between concurrent first calls.
    this.#own ??= createLocalEmbedder(this.#local);
    return this.#own;
  }

  async embedDocuments(documents: string[]): Promise<number[][]> {
    const embedder = await this.embedder();
    const vectors = await this.caller.call(() => embedder.embed(documents));
    return vectors.map((v) => Array.from(v));
  }

  async embedQuery(document: string): Promise<number[]> {
    const [vector] = await this.embedDocuments([document]);
    return vector ?? [];
  }

  /** Frees the local model if this instance loaded it. */
  async close(): Promise<void> {
    const own = this.#own;
    this.#own = undefined;
    if (own) await (await own).close();
  }
}
