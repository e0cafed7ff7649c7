/**
 * A Hugging Face `tokenizer.json`, read from disk with no network: `@huggingface/tokenizers`
 * (pure JS, the tokenizer of transformers.js) does the byte-level BPE work.
 */
import { readFile } from 'node:fs/promises';
import { Tokenizer } from '@huggingface/tokenizers';
import { InferenceError } from '../../core/errors.ts';

export interface TextTokenizer {
  /** Ids of `text`, without the special tokens a post-processor would add. */
  encode(text: string): number[];
  /** Text of `ids`; special tokens are dropped unless `keepSpecial`. */
  decode(ids: readonly number[], keepSpecial?: boolean): string;
  /** The id of a token written exactly (e.g. `<image>`), or undefined. */
  tokenToId(token: string): number | undefined;
}

export interface LoadTokenizerOptions {
  /** Path of `tokenizer.json`. */
  readonly path: string;
  /** Contents of `tokenizer_config.json`, when the model has one. @default {} */
  readonly config?: Readonly<Record<string, unknown>>;
}

/**
 * Load a `tokenizer.json`.
 *
 * @example
 * const tok = await loadTokenizer({ path: 'model/tokenizer.json' });
 * tok.decode(tok.encode('Hello')); // 'Hello'
 */
export async function loadTokenizer(options: Readonly<LoadTokenizerOptions>): Promise<TextTokenizer> {
  const { path, config = {} } = options;
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (cause) {
    throw new InferenceError('FOLIO_MODEL_FILE', `${path}: cannot read the tokenizer (${cause instanceof Error ? cause.message : String(cause)})`, {
      cause,
      meta: { path },
    });
  }
  let tokenizer: Tokenizer;
  try {
    tokenizer = new Tokenizer(json as object, { ...config });
  } catch (cause) {
    throw new InferenceError('FOLIO_MODEL_FILE', `${path}: not a usable tokenizer.json (${cause instanceof Error ? cause.message : String(cause)})`, {
      cause,
      meta: { path },
    });
  }
  return {
    encode: (text) => tokenizer.encode(text, { add_special_tokens: false }).ids,
    decode: (ids, keepSpecial = false) =>
      ids.length === 0 ? '' : tokenizer.decode([...ids], { skip_special_tokens: !keepSpecial, clean_up_tokenization_spaces: false }),
    tokenToId: (token) => tokenizer.token_to_id(token),
  };
}
