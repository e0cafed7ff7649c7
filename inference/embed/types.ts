/** What every embedding backend offers, local ONNX or a remote `/v1/embeddings` endpoint. */
export interface EmbedCallOptions {
  /** Stops between batches; a batch already sent to the model or the server finishes first. */
  readonly signal?: AbortSignal;
}

/**
 * Turns texts into unit-length vectors (cosine similarity is then a dot product).
 *
 * @example
 * const embedder = await createLocalEmbedder();
 * const [vector] = await embedder.embed(['What is a heading path?']);
 * await embedder.close();
 */
export interface Embedder {
  /** Model name as recorded in the index (`all-minilm-l6-v2`, or the remote model id). */
  readonly model: string;
  /** Length of every vector; the index's `dense_vector.dims`. */
  readonly dims: number;
  /** Longest input the model reads, in its own tokens (special tokens included); longer texts are truncated. */
  readonly maxTokens: number;
  /** One vector per text, in order. Empty input gives an empty array. */
  embed(texts: readonly string[], options?: EmbedCallOptions): Promise<Float32Array[]>;
  /** Tokens the model would see for `text` before truncation (special tokens included). */
  countTokens(text: string): number;
  /** Frees the model; the embedder cannot be used afterwards. */
  close(): Promise<void>;
}
