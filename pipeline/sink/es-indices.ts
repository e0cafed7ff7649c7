/**
 * The Elasticsearch sink's three indices (chunks, document state, failures), installed once.
 * When the chunk index exists they are checked before the run starts, so a vector size that
 * differs from the index's stops it at once (`FOLIO_ES_DIMS_MISMATCH`). When it does not, they
 * are created in the background: creating three indices takes the server a second or more on a
 * small machine, which reading the first documents need not wait for. Writes then wait only at
 * their first flush.
 */
import type { Client } from '@elastic/elasticsearch';
import { DEFAULT_DIMS, installMappings, restoreStaleRefresh } from '../../mappings/index.ts';

export interface IndexNames {
  readonly index: string;
  readonly documentsIndex: string;
  readonly failuresIndex: string;
}

export class SinkIndices {
  readonly #client: Client;
  readonly #names: IndexNames;
  #dims: number | undefined;
  #chunks: Promise<void> | undefined;
  #meta: Promise<void> | undefined;
  #failure: unknown;
  #freshDocuments = false;

  constructor(client: Client, names: IndexNames, dims: number | undefined) {
    this.#client = client;
    this.#names = names;
    this.#dims = dims;
  }

  /**
   * True when the documents index did not exist when the sink started: no document in it can be
   * unchanged, so the sink need not ask (nor race the index being created).
   */
  get freshDocuments(): boolean {
    return this.#freshDocuments;
  }

  /** Why installing failed, once it has: writes reject with it (a configuration problem). */
  get failure(): unknown {
    return this.#failure;
  }

  /**
   * Look at what exists: an existing chunk index is checked (and its vector size adopted when
   * none was given) before this resolves; a missing one is created in the background when the
   * vector size is known, else on the first chunk.
   */
  async prepare(): Promise<void> {
    const { index, documentsIndex } = this.#names;
    const [chunksExist, documentsExist] = await Promise.all([this.#client.indices.exists({ index }), this.#client.indices.exists({ index: documentsIndex })]);
    this.#freshDocuments = !documentsExist;
    if (chunksExist) {
      // An older Folio, killed mid-load, may have left refresh off: what it indexed must become searchable.
      await restoreStaleRefresh(this.#client, index).catch(() => undefined);
      if (this.#dims === undefined) {
        const mapping = await this.#client.indices.getMapping({ index }, { ignore: [404] }).catch(() => undefined);
        const first = Object.values(mapping ?? {})[0] as { mappings?: { properties?: Record<string, { dims?: number }> } } | undefined;
        this.#dims = first?.mappings?.properties?.['vector']?.dims;
      }
      if (this.#dims !== undefined) await this.chunks(this.#dims);
    } else if (this.#dims !== undefined) {
      void this.chunks(this.#dims).catch(() => undefined);
    }
  }

  /**
   * All three indices, for chunks with `dims`-sized vectors. Without a configured size the first
   * caller decides (the first chunk's vector length, or 384): creating the chunk index with a
   * guessed size would refuse every later vector.
   */
  chunks(dims: number = this.#dims ?? DEFAULT_DIMS): Promise<void> {
    this.#dims ??= dims;
    // Refresh stays on, even while a new index is loaded: a writer killed mid-load must not leave
    // an index people read with its data hidden (refresh off survives the writer).
    this.#chunks ??= installMappings(this.#client, { ...this.#names, dims: this.#dims }).then(
      () => undefined,
      (error: unknown) => {
        // Kept: the run cannot go on without its chunk index (as when the install was awaited up front).
        this.#failure ??= error;
        throw error;
      },
    );
    return this.#chunks;
  }

  /**
   * The indices failure and document records need: all three once the vector size is known, only
   * those two before.
   */
  meta(): Promise<void> {
    if (this.#chunks !== undefined || this.#dims !== undefined) return this.chunks();
    this.#meta ??= installMappings(this.#client, { ...this.#names, chunks: false }).then(
      () => undefined,
      (error: unknown) => {
        // Forget a failed attempt: the records go to the fallback file and the next flush tries again.
        this.#meta = undefined;
        throw error;
      },
    );
    return this.#meta;
  }
}
