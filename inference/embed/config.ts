/**
 * The embedding model contract: a folder with `folio-embed.json`, an ONNX graph and a
 * `tokenizer.json`. The JSON says everything the runtime must not guess (dimensions, the longest
 * input, pooling, normalisation) so a different sentence-embedding model drops in unchanged.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigurationError } from '../../core/errors.ts';

export type Pooling = 'mean' | 'cls';

export interface EmbedModelConfig {
  /** Model name recorded with every vector. */
  readonly name: string;
  readonly dims: number;
  /** Longest input in tokens, special tokens included (sentence-transformers' `max_seq_length`). */
  readonly maxTokens: number;
  readonly pooling: Pooling;
  /** Whether vectors are L2-normalised after pooling (needed for cosine = dot product). */
  readonly normalize: boolean;
  /** ONNX file name inside the folder. */
  readonly onnx: string;
  /** Name of the output holding per-token states `[B, S, H]`. */
  readonly output: string;
  /** Weight type of the ONNX file (`int8`, `float32`), informational. */
  readonly dtype: string;
  readonly license: string;
}

/** The model shipped in the repository. */
export const DEFAULT_MODEL_DIR = fileURLToPath(new URL('./models/all-minilm-l6-v2/', import.meta.url));

function fail(dir: string, message: string): never {
  throw new ConfigurationError('FOLIO_EMBED_MODEL', `${join(dir, 'folio-embed.json')}: ${message}`, { meta: { modelDir: dir } });
}

/** Reads and checks `folio-embed.json` in `modelDir`. */
export async function readEmbedModelConfig(modelDir: string): Promise<EmbedModelConfig> {
  const dir = resolve(modelDir);
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(join(dir, 'folio-embed.json'), 'utf8'));
  } catch (cause) {
    throw new ConfigurationError(
      'FOLIO_EMBED_MODEL',
      `Expected \`modelDir\` to hold folio-embed.json, got \`${dir}\` (${cause instanceof Error ? cause.message : String(cause)}); run inference/embed/convert/convert.py to build it`,
      { cause, meta: { modelDir: dir } },
    );
  }
  if (typeof raw !== 'object' || raw === null) fail(dir, 'expected a JSON object');
  const c = raw as Record<string, unknown>;
  const positive = (key: string): number => {
    const value = c[key];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
      fail(dir, `expected \`${key}\` to be an integer from 1 and up, got \`${String(value)}\` (${typeof value})`);
    return value;
  };
  const text = (key: string, fallback?: string): string => {
    const value = c[key] ?? fallback;
    if (typeof value !== 'string' || value === '') fail(dir, `expected \`${key}\` to be a non-empty string, got \`${String(value)}\``);
    return value;
  };
  const pooling = text('pooling', 'mean');
  if (pooling !== 'mean' && pooling !== 'cls') fail(dir, `expected \`pooling\` to be \`mean\` or \`cls\`, got \`${pooling}\``);
  return {
    name: text('name'),
    dims: positive('dims'),
    maxTokens: positive('maxTokens'),
    pooling,
    normalize: c['normalize'] !== false,
    onnx: text('onnx', 'model.onnx'),
    output: text('output', 'last_hidden_state'),
    dtype: text('dtype', 'float32'),
    license: text('license', 'unknown'),
  };
}
