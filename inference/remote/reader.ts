/**
 * The `reader` engine: Jina's Reader API reads a document by its URL and answers one page of
 * jina-ocr-v1 Markdown (`GET {base}/{document url}` with `X-Respond-With: jina-ocr-v1` and
 * `X-Page`). It needs documents given by http(s) URL; a local file is a clear error.
 */
import { InferenceError } from '../../core/errors.ts';
import { createHttpEngine, type HttpEngine, type HttpEngineOptions, HttpStatusError } from './http-engine.ts';

export interface ReaderEngineOptions extends Omit<HttpEngineOptions, 'urls'> {
  /** @default 'https://r.jina.ai' */
  readonly baseUrl?: string;
  /** Bearer key (`JINA_API_KEY`); never logged. */
  readonly apiKey?: string;
}

export function createReaderEngine(options: Readonly<ReaderEngineOptions> = {}): HttpEngine {
  const { baseUrl = 'https://r.jina.ai', apiKey } = options;
  return createHttpEngine(
    'reader',
    async (base, page, signal) => {
      if (!/^https?:\/\//.test(page.source)) {
        throw new InferenceError(
          'FOLIO_READER_NEEDS_URL',
          `${page.source} page ${page.pageNumber}: the reader engine reads documents by http(s) URL; use another engine for local files`,
        );
      }
      const sent = performance.now();
      const response = await fetch(`${base}/${page.source}`, {
        signal,
        headers: {
          'x-respond-with': 'jina-ocr-v1',
          'x-page': String(page.pageNumber),
          accept: 'text/plain',
          ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
        },
      });
      if (!response.ok) throw await HttpStatusError.from(response);
      const markdown = await response.text();
      return { markdown, tokens: Number(response.headers.get('x-usage-tokens') ?? 0), requestMs: performance.now() - sent };
    },
    { ...options, urls: [baseUrl] },
  );
}
