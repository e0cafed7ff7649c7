/**
 * The `remote` engine: pages go to OpenAI-compatible chat-completion servers (vLLM serving
 * jina-ocr-v1, a hosted API, or another `folio serve`) as PNG data URLs at temperature 0. Without
 * a model name, each server is asked what it serves (`GET /v1/models`), so a folio-to-folio setup
 * works with no flags.
 */
import { createHttpEngine, type HttpEngine, type HttpEngineOptions, HttpStatusError } from './http-engine.ts';
import { pageDataUrl } from './image-url.ts';
import { chatDeltas } from './sse.ts';

/** jina-ocr-v1's default instruction. */
export const DEFAULT_OCR_PROMPT = 'Transcribe the provided document image into a clean Markdown format, preserving the natural reading order.';

/** The model asked for when a server does not list its models. */
export const DEFAULT_REMOTE_MODEL = 'jina-ocr-v1';

export interface RemoteEngineOptions extends HttpEngineOptions {
  /**
   * Model name sent with each request. When left out, each server's `GET /v1/models` decides:
   * `jina-ocr-v1` when it is listed, else the first model listed (a `folio serve` lists its
   * engine, `folio-paddle`), else `jina-ocr-v1`.
   * @default undefined (asked of each server)
   */
  readonly model?: string;
  /** Bearer key; the CLI reads it from `FOLIO_REMOTE_API_KEY`. Never logged. */
  readonly apiKey?: string;
  /** @default DEFAULT_OCR_PROMPT */
  readonly prompt?: string;
  /** @default 4096 */
  readonly maxTokens?: number;
  /** Ask for server-sent events and assemble the deltas. @default false */
  readonly stream?: boolean;
}

/**
 * @example
 * const engine = createRemoteEngine({ urls: ['http://gpu-box:8000'], model: 'jina-ocr-v1' });
 * const [page] = await engine.recognize([image]);
 */
export function createRemoteEngine(options: Readonly<RemoteEngineOptions>): HttpEngine {
  const { model, apiKey, prompt = DEFAULT_OCR_PROMPT, maxTokens = 4096, stream = false } = options;
  const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  // One question per server, asked by its first page; pages after it wait for the same answer.
  const served = new Map<string, Promise<string>>();
  const modelOf = (base: string, signal: AbortSignal): Promise<string> => {
    if (model !== undefined) return Promise.resolve(model);
    let answer = served.get(base);
    if (answer === undefined) {
      answer = servedModel(base, headers, signal);
      served.set(base, answer);
      // A lookup cut short (the page's deadline) is asked again by the next page.
      answer.catch(() => served.delete(base));
    }
    return answer;
  };
  return createHttpEngine(
    'remote',
    async (base, page, signal) => {
      const body = JSON.stringify({
        model: await modelOf(base, signal),
        temperature: 0,
        max_tokens: maxTokens,
        stream,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image_url', image_url: { url: await pageDataUrl(page) } },
              { type: 'text', text: prompt },
            ],
          },
        ],
      });
      const sent = performance.now();
      const response = await fetch(`${base}/v1/chat/completions`, {
        method: 'POST',
        signal,
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
      if (!response.ok) throw await HttpStatusError.from(response);
      if (stream && response.body) {
        let markdown = '';
        let tokens = 0;
        for await (const delta of chatDeltas(response.body)) {
          markdown += delta.text;
          tokens = delta.tokens ?? tokens + (delta.text ? 1 : 0);
        }
        return { markdown, tokens, requestMs: performance.now() - sent };
      }
      const answer = (await response.json()) as { choices?: { message?: { content?: string } }[]; usage?: { completion_tokens?: number } };
      const requestMs = performance.now() - sent;
      const markdown = answer.choices?.[0]?.message?.content;
      if (typeof markdown !== 'string') throw new Error('the response has no choices[0].message.content');
      return { markdown, tokens: answer.usage?.completion_tokens ?? 0, requestMs };
    },
    options,
  );
}

/**
 * The model a server serves: `jina-ocr-v1` when listed, else the first listed. A server without
 * the endpoint, or with an answer we cannot read, gets the default name; only an abort rejects.
 */
async function servedModel(base: string, headers: Readonly<Record<string, string>>, signal: AbortSignal): Promise<string> {
  try {
    const response = await fetch(`${base}/v1/models`, { headers, signal });
    if (!response.ok) {
      await response.body?.cancel();
      return DEFAULT_REMOTE_MODEL;
    }
    const list = (await response.json()) as { data?: { id?: unknown }[] };
    const ids = (list.data ?? []).map((entry) => entry.id).filter((id): id is string => typeof id === 'string' && id !== '');
    return ids.includes(DEFAULT_REMOTE_MODEL) ? DEFAULT_REMOTE_MODEL : (ids[0] ?? DEFAULT_REMOTE_MODEL);
  } catch {
    signal.throwIfAborted();
    // Unreachable: the chat request that follows fails (and is retried) with the real reason.
    return DEFAULT_REMOTE_MODEL;
  }
}
