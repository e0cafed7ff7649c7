/**
 * `folio ask`: retrieve, print the cited context, and optionally let an LLM behind an
 * OpenAI-compatible `/v1/chat/completions` endpoint answer from it.
 */
import { ConfigurationError, InferenceError } from '../core/errors.ts';
import { formatContext } from './context.ts';
import { hybridSearch } from './search.ts';
import type { HybridSearchOptions, SearchHit } from './types.ts';

export interface LlmOptions {
  /** Base URL (`http://127.0.0.1:8000/v1`) or the full `…/chat/completions` URL. */
  readonly url: string;
  readonly model: string;
  /** @default process.env.FOLIO_LLM_API_KEY */
  readonly apiKey?: string;
  /** @default 60000 */
  readonly timeoutMs?: number;
  /** @default 512 */
  readonly maxTokens?: number;
  /** @default globalThis.fetch */
  readonly fetch?: typeof globalThis.fetch;
}

export interface AskOptions extends HybridSearchOptions {
  /** Context budget in characters. @default 6000 */
  readonly maxContextChars?: number;
  /** Answer with this LLM; without it `ask` only retrieves. @default undefined */
  readonly llm?: LlmOptions;
}

export interface AskResult {
  readonly query: string;
  readonly hits: readonly SearchHit[];
  /** The cited block (see {@link formatContext}). */
  readonly context: string;
  /** The LLM's answer, when `llm` was given. */
  readonly answer?: string;
}

const SYSTEM_PROMPT =
  'Answer the question using only the numbered context passages. Cite passages as [n] after the sentences they support. If the context does not contain the answer, say so.';

/** The chat-completions messages `ask` sends; exported so callers can reuse the prompt. */
export function askMessages(query: string, context: string): { role: 'system' | 'user'; content: string }[] {
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: `Context:\n\n${context}\n\nQuestion: ${query}` },
  ];
}

async function complete(llm: Readonly<LlmOptions>, query: string, context: string, signal?: AbortSignal): Promise<string> {
  const { url, model, apiKey = process.env['FOLIO_LLM_API_KEY'], timeoutMs = 60_000, maxTokens = 512, fetch = globalThis.fetch } = llm;
  if (!model) throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`llm.model\` to be a non-empty string, got \`${String(model)}\``);
  let endpoint: URL;
  try {
    endpoint = new URL(url);
  } catch (cause) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`llm.url\` to be an http(s) URL, got \`${url}\``, { cause });
  }
  if (!endpoint.pathname.endsWith('/chat/completions')) endpoint.pathname = `${endpoint.pathname.replace(/\/+$/, '')}/chat/completions`;
  const timeout = AbortSignal.timeout(timeoutMs);
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
    body: JSON.stringify({ model, messages: askMessages(query, context), max_tokens: maxTokens, temperature: 0 }),
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  }).catch((cause: unknown) => {
    throw new InferenceError('FOLIO_LLM', `${endpoint.href}: request failed (${cause instanceof Error ? cause.message : String(cause)})`, {
      cause,
      meta: { url: endpoint.href },
    });
  });
  if (!response.ok) {
    throw new InferenceError('FOLIO_LLM', `${endpoint.href}: HTTP ${response.status}: ${(await response.text()).slice(0, 300)}`, {
      meta: { url: endpoint.href, status: response.status },
    });
  }
  const json = (await response.json()) as { choices?: { message?: { content?: string } }[] };
  const answer = json.choices?.[0]?.message?.content;
  if (typeof answer !== 'string')
    throw new InferenceError('FOLIO_LLM', `${endpoint.href}: no \`choices[0].message.content\` in the response`, { meta: { url: endpoint.href } });
  return answer.trim();
}

/**
 * Retrieves the top chunks for `query` and returns them as a cited context block, plus an answer
 * when an LLM endpoint is configured.
 *
 * @example
 * const { context, answer } = await ask({ query: 'What does TableFormer predict?', k: 5, llm: { url: 'http://127.0.0.1:8000/v1', model: 'qwen' } });
 */
export async function ask(options: Readonly<AskOptions>): Promise<AskResult> {
  const { maxContextChars = 6000, llm, ...search } = options;
  const hits = await hybridSearch({ k: 5, ...search });
  const context = formatContext(hits, { maxChars: maxContextChars });
  if (!llm || hits.length === 0) return { query: search.query, hits, context };
  return { query: search.query, hits, context, answer: await complete(llm, search.query, context, search.signal) };
}
