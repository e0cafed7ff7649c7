/**
 * The model's own tokenizer (`tokenizer.json`) through @huggingface/tokenizers, a maintained
 * pure-JS port of the Rust library. It is loaded lazily: importing Folio costs nothing until an
 * embedder is created.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigurationError } from '../../core/errors.ts';
import { Lru } from '../../core/lru.ts';

/** A batch ready for a BERT-style encoder: right-padded to the longest row. */
export interface TokenBatch {
  /** Rows × `length`, row-major. */
  readonly inputIds: BigInt64Array;
  readonly attentionMask: BigInt64Array;
  readonly tokenTypeIds: BigInt64Array;
  readonly rows: number;
  readonly length: number;
}

/** The embedding model's tokenizer: ids with special tokens, truncated, and padded batches (the OCR decoder's tokenizer is `TextTokenizer` in `inference/tokenizer`). */
export interface EmbeddingTokenizer {
  /** Token ids with special tokens, truncated to `maxTokens` (the final separator kept). */
  encode(text: string): number[];
  /** Untruncated count, special tokens included. */
  count(text: string): number;
  /** Encodes and pads a batch. */
  batch(texts: readonly string[]): TokenBatch;
  /** Pads texts already encoded (by {@link EmbeddingTokenizer.encode}) into a batch. */
  pad(encoded: readonly (readonly number[])[]): TokenBatch;
}

/**
 * Texts counted lately whose ids are kept for `encode`: ingest counts every chunk's tokens when it
 * chunks (Chunk.tokens) and embeds the same text moments later, so the second encoding is a
 * lookup. Short texts (words and lines the chunker measures) are cheap to encode again and would
 * only push chunks out. Past the bound the least recently counted goes.
 */
const CACHE_ENTRIES = 4096;
const CACHE_MIN_CHARS = 128;

interface HfTokenizer {
  encode(text: string): { ids: number[] };
  token_to_id(token: string): number | undefined;
}

/** Loads `tokenizer.json` (and `tokenizer_config.json` when present) from `modelDir`. */
export async function loadEmbeddingTokenizer(modelDir: string, maxTokens: number): Promise<EmbeddingTokenizer> {
  const { Tokenizer } = await import('@huggingface/tokenizers');
  let json: unknown;
  let config: unknown = {};
  try {
    json = JSON.parse(await readFile(join(modelDir, 'tokenizer.json'), 'utf8'));
  } catch (cause) {
    throw new ConfigurationError(
      'FOLIO_EMBED_TOKENIZER',
      `${join(modelDir, 'tokenizer.json')}: cannot read the tokenizer (${cause instanceof Error ? cause.message : String(cause)})`,
      { cause, meta: { modelDir } },
    );
  }
  try {
    config = JSON.parse(await readFile(join(modelDir, 'tokenizer_config.json'), 'utf8'));
  } catch {
    // Optional: tokenizer.json alone describes a WordPiece tokenizer fully.
  }
  const tokenizer = new Tokenizer(json as object, config as object) as unknown as HfTokenizer;
  const sep = tokenizer.token_to_id('[SEP]') ?? tokenizer.token_to_id('</s>');
  const padId = tokenizer.token_to_id('[PAD]') ?? tokenizer.token_to_id('<pad>') ?? 0;

  const cache = new Lru<number[]>({ maxEntries: CACHE_ENTRIES });
  const count = (text: string): number => {
    const ids = tokenizer.encode(text).ids;
    if (text.length >= CACHE_MIN_CHARS) cache.set(text, ids);
    return ids.length;
  };
  const encode = (text: string): number[] => {
    const cached = cache.get(text);
    // A chunk is embedded once after it was counted: free the entry.
    if (cached !== undefined) cache.delete(text);
    const ids = cached ?? tokenizer.encode(text).ids;
    if (ids.length <= maxTokens) return ids;
    // Same as the Rust tokenizer's truncation: cut the content, keep the closing separator.
    const cut = ids.slice(0, maxTokens - 1);
    cut.push(sep ?? (ids[ids.length - 1] as number));
    return cut;
  };

  const pad = (encoded: readonly (readonly number[])[]): TokenBatch => {
    const length = Math.max(1, ...encoded.map((ids) => ids.length));
    const rows = encoded.length;
    const inputIds = new BigInt64Array(rows * length).fill(BigInt(padId));
    const attentionMask = new BigInt64Array(rows * length);
    encoded.forEach((ids, row) => {
      ids.forEach((id, col) => {
        inputIds[row * length + col] = BigInt(id);
        attentionMask[row * length + col] = 1n;
      });
    });
    return { inputIds, attentionMask, tokenTypeIds: new BigInt64Array(rows * length), rows, length };
  };

  return { encode, count, pad, batch: (texts) => pad(texts.map(encode)) };
}
