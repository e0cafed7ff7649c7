/**
 * Embeddings from an OpenAI-compatible `POST /v1/embeddings` endpoint (OpenAI, jina, vLLM, TEI,
 * Ollama …) behind the same {@link Embedder} interface as the local model. Only transient faults
 * are retried, by the one policy of `core/retry.ts` (429, 502–504, timeouts, connections lost).
 */

import { ConfigurationError, InferenceError } from '../../core/errors.ts';
import { isTransientStatus, RetriesExhausted, retryAfterMs, withRetry } from '../../core/retry.ts';
import { l2normalize } from './pooling.ts';
import type { EmbedCallOptions, Embedder } from './types.ts';

export interface RemoteEmbedderOptions {
  /** Base URL (`https://api.jina.ai/v1`) or the full `…/embeddings` URL. */
  readonly url: string;
  /** Model id sent with every request. */
  readonly model: string;
  /** Sent as `Authorization: Bearer …`. @default process.env.FOLIO_EMBED_API_KEY */
  readonly apiKey?: string;
  /** Expected dimensions; asked for with `dimensions` and checked. @default taken from the first response */
  readonly dims?: number;
  /** Texts per request. @default 64 */
  readonly batchSize?: number;
  /** Per-request timeout in ms. @default 30000 */
  readonly timeoutMs?: number;
  /** Retries of a transient failure. @default 3 */
  readonly retries?: number;
  /** Ceiling of the first backoff in ms, jittered; doubles per retry, capped at 8 s (a `Retry-After` too). @default 250 */
  readonly retryDelayMs?: number;
  /** Longest input the server accepts, in tokens. @default 8192 */
  readonly maxTokens?: number;
  /** Replaces global fetch (tests, proxies). @default globalThis.fetch */
  readonly fetch?: typeof globalThis.fetch;
}

function checkInteger(name: string, value: unknown, min: number): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`${name}\` to be an integer from ${min} and up, got \`${String(value)}\` (${typeof value})`);
  }
}

/** Resolves `…/v1` or `…/v1/embeddings` to the embeddings URL. */
export function embeddingsUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (cause) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`url\` to be an http(s) URL, got \`${url}\``, { cause });
  }
  if (parsed.pathname.endsWith('/embeddings')) return parsed.href;
  parsed.pathname = `${parsed.pathname.replace(/\/+$/, '')}/embeddings`;
  return parsed.href;
}

/**
 * @example
 * const embedder = await createRemoteEmbedder({ url: 'https://api.jina.ai/v1', model: 'jina-embeddings-v3', apiKey });
 */
export async function createRemoteEmbedder(options: Readonly<RemoteEmbedderOptions>): Promise<Embedder> {
  const {
    url,
    model,
    apiKey = process.env['FOLIO_EMBED_API_KEY'],
    dims,
    batchSize = 64,
    timeoutMs = 30_000,
    retries = 3,
    retryDelayMs = 250,
    maxTokens = 8192,
    fetch = globalThis.fetch,
  } = options;
  if (typeof model !== 'string' || model === '')
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`model\` to be a non-empty string, got \`${String(model)}\``);
  const endpoint = embeddingsUrl(url);
  checkInteger('batchSize', batchSize, 1);
  checkInteger('timeoutMs', timeoutMs, 1);
  checkInteger('retries', retries, 0);
  checkInteger('retryDelayMs', retryDelayMs, 0);
  checkInteger('maxTokens', maxTokens, 1);
  if (dims !== undefined) checkInteger('dims', dims, 1);
  let knownDims = dims ?? 0;

  const request = async (input: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> => {
    const body = JSON.stringify({ model, input, encoding_format: 'float', ...(dims ? { dimensions: dims } : {}) });
    const send = async (): Promise<Response> => {
      const timeout = AbortSignal.timeout(timeoutMs);
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
        body,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      if (isTransientStatus(response.status)) {
        const text = (await response.text()).slice(0, 200);
        throw Object.assign(new Error(`HTTP ${response.status}: ${text}`), {
          status: response.status,
          retryAfterMs: retryAfterMs(response.headers.get('retry-after')),
        });
      }
      return response;
    };
    let response: Response;
    try {
      response = await withRetry(send, { retries, baseDelayMs: retryDelayMs, maxDelayMs: 8000, signal });
    } catch (error) {
      if (signal?.aborted) throw error;
      const last = error instanceof RetriesExhausted ? error.cause : error;
      const what = last instanceof Error ? last.message : String(last);
      const prefix = error instanceof RetriesExhausted ? `gave up after ${error.attempts} attempts` : 'request failed';
      throw new InferenceError('FOLIO_EMBED_REMOTE', `${endpoint}: ${prefix}: ${what}`, { cause: last, meta: { url: endpoint, retries } });
    }
    if (!response.ok) {
      throw new InferenceError('FOLIO_EMBED_REMOTE', `${endpoint}: HTTP ${response.status} for model \`${model}\`: ${(await response.text()).slice(0, 300)}`, {
        meta: { url: endpoint, status: response.status },
      });
    }
    const json = (await response.json()) as { data?: { index?: number; embedding?: number[] }[] };
    const data = json.data;
    if (!Array.isArray(data) || data.length !== input.length) {
      throw new InferenceError(
        'FOLIO_EMBED_REMOTE',
        `${endpoint}: expected ${input.length} embeddings in \`data\`, got ${Array.isArray(data) ? data.length : 'none'}`,
        { meta: { url: endpoint } },
      );
    }
    const vectors = new Array<Float32Array>(input.length);
    data.forEach((item, position) => {
      const vector = Float32Array.from(item.embedding ?? []);
      if (knownDims === 0) knownDims = vector.length;
      if (vector.length !== knownDims || vector.length === 0) {
        throw new InferenceError('FOLIO_EMBED_REMOTE', `${endpoint}: expected vectors of ${knownDims} dimensions from \`${model}\`, got ${vector.length}`, {
          meta: { url: endpoint },
        });
      }
      vectors[item.index ?? position] = l2normalize(vector);
    });
    return vectors;
  };

  if (knownDims === 0) await request(['dimension probe']);
  let closed = false;

  return {
    model,
    get dims() {
      return knownDims;
    },
    maxTokens,
    // No tokenizer for an arbitrary remote model: ~4 characters a token is the usual estimate.
    countTokens: (text) => Math.ceil(text.length / 4),
    async embed(texts: readonly string[], callOptions: EmbedCallOptions = {}) {
      if (closed) throw new InferenceError('FOLIO_EMBED_CLOSED', `embedder \`${model}\` is closed`);
      const out: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        callOptions.signal?.throwIfAborted();
        out.push(...(await request(texts.slice(start, start + batchSize), callOptions.signal)));
      }
      return out;
    },
    async close() {
      closed = true;
    },
  };
}
