/**
 * `POST /v1/convert`: one document in, its Markdown, elements, chunks (with vectors when asked),
 * page routes and failures out, through the same `processSources` → `processDocument` path as
 * `folio convert` and `folio ingest`. OCR pages go through the server's batcher, so documents and
 * single-page OCR requests share the engine and its batches. Conversions in flight are bounded:
 * one more is turned away with 429 and `Retry-After`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sniffMime } from '../connector/sniff.ts';
import { sha256, stableId } from '../core/hash.ts';
import type { SourceDocument } from '../core/types.ts';
import type { OcrEngine } from '../inference/engine.ts';
import { type ChunkEmbedder, embedChunks } from '../pipeline/run/ingest.ts';
import type { ProcessedDocument } from '../pipeline/run/process-document.ts';
import { processSources } from '../pipeline/run/process-sources.ts';
import { isUnreadSource } from '../pipeline/run/sources.ts';
import type { Batcher } from './batcher.ts';
import { readBytes } from './body.ts';
import { type ConvertRequest, parseConvertRequest } from './convert-request.ts';
import { convertResponse } from './convert-response.ts';
import { type FetchGuardOptions, guardedFetch } from './fetch-guard.ts';
import { HttpError } from './http-error.ts';

/** An embedder as the route needs it: vectors, and the model's token counting and limit for chunk sizes. */
export interface ConvertEmbedder extends ChunkEmbedder {
  readonly maxTokens?: number;
  countTokens?(text: string): number;
}

export interface ConvertRouteOptions {
  /** The served OCR engine's name (what `engine` may force besides `auto` and `text`). */
  readonly engineName: string;
  readonly batcher: Batcher;
  /** Turns `embed: true` on; without one such a request is a 400. */
  readonly embedder?: ConvertEmbedder;
  /** URL fetching; off (a `url` is a 403) unless given. @default undefined */
  readonly fetch?: Readonly<FetchGuardOptions>;
  /** @default 50 MiB */
  readonly maxBodyBytes?: number;
  /** Conversions running at once before 429. @default 8 */
  readonly convertLimit?: number;
  /** Seconds a turned-away client is told to wait. @default 1 */
  readonly retryAfterSeconds?: number;
}

export interface ConvertRoute {
  /** Conversions in flight. */
  readonly load: number;
  handle(req: IncomingMessage, res: ServerResponse): Promise<number>;
}

/** The served engine, reached through the batcher; closing it is the server's business. */
function batchedEngine(name: string, batcher: Batcher): OcrEngine {
  return {
    name,
    recognize: (pages) => Promise.all(pages.map((page) => batcher.submit(page, { admitted: true }))),
    close: async () => {},
  };
}

export function createConvertRoute(options: Readonly<ConvertRouteOptions>): ConvertRoute {
  const { engineName, batcher, embedder, fetch, maxBodyBytes = 50 * 1024 * 1024, convertLimit = 8, retryAfterSeconds = 1 } = options;
  const engine = batchedEngine(engineName, batcher);
  let running = 0;

  async function documentOf(request: ConvertRequest): Promise<SourceDocument> {
    let bytes = request.bytes;
    let uri: string;
    if (request.url !== undefined) {
      if (fetch === undefined)
        throw new HttpError(
          403,
          'url_refused',
          `refusing to fetch ${request.url}: URL fetching is off on this server (start it with --fetch-hosts to allow hosts)`,
        );
      const fetched = await guardedFetch(request.url, { maxBytes: maxBodyBytes, ...fetch });
      bytes = fetched.bytes;
      uri = fetched.url;
    } else {
      uri = `upload:${request.filename ?? sha256(bytes!).slice(0, 16)}`;
    }
    if (bytes === undefined || bytes.length === 0) throw new HttpError(400, 'invalid_request_error', `the document ${uri} is empty (0 bytes)`);
    const name = request.filename ?? new URL(uri, 'upload:/').pathname.split('/').pop() ?? '';
    // A name without an extension (an Elasticsearch `index/id`) cannot say "Markdown": UTF-8 text
    // that is no other type is taken as Markdown, the one text type Folio reads, unless the
    // client declared a binary type (then text is a broken document, not Markdown).
    const sniffed = sniffMime(bytes, name);
    const declared = request.contentType;
    const textAllowed = declared === undefined || declared === 'application/octet-stream' || declared.startsWith('text/');
    const mime = sniffed === 'application/octet-stream' && textAllowed ? sniffMime(bytes, `${name}.md`) : sniffed;
    return { id: stableId(uri), uri, relativePath: name || uri, mime, bytes, contentHash: sha256(bytes) };
  }

  async function convertOne(request: ConvertRequest, doc: SourceDocument): Promise<ProcessedDocument> {
    const countTokens = request.embed && embedder?.countTokens ? (text: string) => embedder.countTokens!(text) : undefined;
    const maxTokens = request.embed ? embedder?.maxTokens : undefined;
    const one = (async function* () {
      yield doc;
    })();
    for await (const item of processSources(one, {
      engine: request.engine,
      ocr: async () => engine,
      workers: 0,
      ...(countTokens ? { countTokens } : {}),
      ...(maxTokens ? { maxTokens } : {}),
    })) {
      if (isUnreadSource(item)) throw new HttpError(422, 'unreadable_document', item.failure.reason);
      if (!item.ok) throw new HttpError(422, 'unreadable_document', item.failures.map((f) => f.reason).join('; '));
      if (!request.embed || embedder === undefined || item.chunks.length === 0) return item;
      return { ...item, chunks: await embedChunks(item.chunks, embedder, 32) };
    }
    throw new HttpError(500, 'server_error', `${doc.uri}: the pipeline returned nothing`);
  }

  return {
    get load() {
      return running;
    },
    async handle(req, res) {
      if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'use POST for /v1/convert');
      if (running >= convertLimit) {
        req.resume();
        throw new HttpError(429, 'rate_limit_exceeded', `the server is busy (${running} documents converting); retry after ${retryAfterSeconds} s`, {
          'retry-after': String(retryAfterSeconds),
        });
      }
      running++;
      try {
        const began = performance.now();
        const request = parseConvertRequest(req, await readBytes(req, maxBodyBytes));
        if (request.engine !== 'auto' && request.engine !== 'text' && request.engine !== engineName) {
          throw new HttpError(
            400,
            'invalid_request_error',
            `\`engine\` must be auto, text or ${engineName} (the engine this server runs), got \`${request.engine}\``,
          );
        }
        if (request.embed && embedder === undefined)
          throw new HttpError(400, 'invalid_request_error', '`embed` is true but this server has no embedding model (start it with --embed local)');
        const doc = await documentOf(request);
        const result = await convertOne(request, doc);
        if (res.destroyed) return 499;
        const body = convertResponse(result, { chunks: request.chunks, tookMs: Math.round(performance.now() - began) });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
        return 200;
      } finally {
        running--;
      }
    },
  };
}
