/**
 * The `remote` engine: pages go to OpenAI-compatible chat-completion servers (vLLM serving
 * jina-ocr-v1, a hosted API, or another `folio serve`) as PNG data URLs at temperature 0.
 */
import { createHttpEngine, HttpStatusError, type HttpEngine, type HttpEngineOptions } from './http-engine.ts';
import { pageDataUrl } from './image-url.ts';
import { chatDeltas } from './sse.ts';

/** jina-ocr-v1's default instruction. */
export const DEFAULT_OCR_PROMPT = 'Transcribe the provided document image into a clean Markdown format, preserving the natural reading order.';

export interface RemoteEngineOptions extends HttpEngineOptions {
  /** Model name sent with each request. @default 'jina-ocr-v1' */
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
  const { model = 'jina-ocr-v1', apiKey, prompt = DEFAULT_OCR_PROMPT, maxTokens = 4096, stream = false } = options;
  return createHttpEngine('remote', async (base, page, signal) => {
    const body = JSON.stringify({
      model,
      temperature: 0,
      max_tokens: maxTokens,
      stream,
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: await pageDataUrl(page) } }, { type: 'text', text: prompt }] }],
    });
    const sent = performance.now();
    const response = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      signal,
      headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
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
  }, options);
}
