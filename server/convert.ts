/**
 * `POST /v1/convert`: one document in, its Markdown, elements, chunks (with vectors when asked),
 * page routes and failures out, and the same for each of its e-mail attachments (`attachments`),
 * through the same worker threads (`pipeline/parallel`) and `readDocument` → `chunkProcessed`
 * path as `folio convert --workers N`. OCR pages come back to the server's batcher, so documents
 * and single-page OCR requests share the engine and its batches. Threads idle for `idleMs` are
 * ended: a thread's heap and PDFium's wasm memory only shrink when it ends, so after large
 * documents the server returns to its start-up size. A few documents convert at once and
 * the next ones queue (see `convert-queue.ts`); past the queue's bounds a client is turned away
 * with 429 and the queue's real wait in `Retry-After`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { availableParallelism } from 'node:os';
import { sniffMime } from '../connector/sniff.ts';
import { sha256, stableId } from '../core/hash.ts';
import type { SourceDocument } from '../core/types.ts';
import type { OcrEngine } from '../inference/engine.ts';
import { WorkerPool } from '../pipeline/parallel/pool.ts';
import { compiledPdfium } from '../pipeline/pdf/pdfium.ts';
import { chunkProcessed } from '../pipeline/run/chunk-processed.ts';
import { type ChunkEmbedder, embedChunks } from '../pipeline/run/ingest.ts';
import type { ProcessedDocument } from '../pipeline/run/process-document.ts';
import type { Batcher } from './batcher.ts';
import { readBytes } from './body.ts';
import { ConvertQueue, type ConvertQueueOptions, type ConvertQueueState } from './convert-queue.ts';
import { type ConvertRequest, parseConvertRequest } from './convert-request.ts';
import { convertResponse } from './convert-response.ts';
import { type FetchGuardOptions, guardedFetch } from './fetch-guard.ts';
import { HttpError } from './http-error.ts';
import { reclaimHeap } from './reclaim.ts';

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
  /** The largest page image, rendered or read (the server's `--max-pixels`). @default 100_000_000 */
  readonly maxPixels?: number;
  /** Documents converting at once; the next ones queue. @default 8 */
  readonly convertLimit?: number;
  /** The queue's other bounds (count, bytes, wait). @default see {@link ConvertQueueOptions} */
  readonly queue?: Readonly<Omit<ConvertQueueOptions, 'concurrency'>>;
  /**
   * Documents are read on worker threads (OCR stays on the served engine); a thread idle this
   * long, in ms, is ended, which gives its heap and PDFium's wasm memory back: neither shrinks
   * while its thread lives. `0` keeps the threads.
   * @default 60000
   */
  readonly idleMs?: number;
  /**
   * Worker threads reading documents; documents past them wait for one. Reading is CPU work (OCR
   * runs on this thread's engine while a worker waits for it), so more threads than cores add
   * memory, not speed: 8 at once took a 2-core server to 888 MB against 473 with 2, and left
   * 384 MB of glibc arenas behind against 315.
   * @default min(convertLimit, max(2, cores))
   */
  readonly workers?: number;
}

export interface ConvertRoute {
  /** Documents converting or queued. */
  readonly load: number;
  /** The queue as `/health` shows it. */
  readonly state: ConvertQueueState;
  handle(req: IncomingMessage, res: ServerResponse): Promise<number>;
  /** Worker threads ended for being idle so far. */
  readonly recycled: number;
  /** End the worker threads (documents still converting fail). */
  close(): Promise<void>;
}

/** The served engine, reached through the batcher; closing it is the server's business. */
function batchedEngine(name: string, batcher: Batcher): OcrEngine {
  return {
    name,
    recognize: (pages) => Promise.all(pages.map((page) => batcher.submit(page, { admitted: true }))),
    close: async () => {},
  };
}

/** `result` with vectors on its chunks and on its attachments' chunks, at any depth. */
async function withVectors(result: ProcessedDocument, embedder: ConvertEmbedder): Promise<ProcessedDocument> {
  const chunks = result.chunks.length === 0 ? result.chunks : await embedChunks(result.chunks, embedder, 32);
  if (result.children === undefined) return { ...result, chunks };
  // One after another: the embedder's batches are the unit of work, not the documents.
  const children: ProcessedDocument[] = [];
  for (const child of result.children) children.push(await withVectors(child, embedder));
  return { ...result, chunks, children };
}

export function createConvertRoute(options: Readonly<ConvertRouteOptions>): ConvertRoute {
  const {
    engineName,
    batcher,
    embedder,
    fetch,
    maxBodyBytes = 50 * 1024 * 1024,
    maxPixels,
    convertLimit = 8,
    queue: queueOptions = {},
    idleMs = 60_000,
    workers: threads = Math.min(convertLimit, Math.max(2, availableParallelism())),
  } = options;
  const engine = batchedEngine(engineName, batcher);
  const queue = new ConvertQueue({ ...queueOptions, concurrency: convertLimit });
  // Threads started on demand and ended when idle.
  let pool: Promise<WorkerPool> | undefined;
  let created: WorkerPool | undefined;
  const workers = (): Promise<WorkerPool> => {
    pool ??= (async () => {
      // Compiled here once: each thread instantiates it instead of compiling PDFium again.
      const pdfium = await compiledPdfium().catch(() => undefined);
      created = new WorkerPool({
        size: threads,
        idleMs,
        setup: {
          process: maxPixels === undefined ? {} : { maxPixels },
          ocrEngine: undefined,
          ocrEngineOptions: {},
          ocrOnCaller: true,
          // Chunked here: the embedder's token counter cannot cross to a thread.
          chunk: false,
          pageEvents: false,
          ...(pdfium === undefined ? {} : { pdfium }),
        },
        onOcr: (pages) => engine.recognize(pages),
        // With every thread ended, this thread's heap is what is left of the documents' results.
        onIdle: reclaimHeap,
      });
      return created;
    })();
    return pool;
  };

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
    const outcome = await (await workers()).run(doc, { engine: request.engine });
    if (!outcome.ok) throw new HttpError(outcome.code === 'FOLIO_ABORTED' ? 503 : 500, 'server_error', outcome.reason);
    const read: ProcessedDocument = { ...outcome.result, doc };
    if (!read.ok) throw new HttpError(422, 'unreadable_document', read.failures.map((f) => f.reason).join('; '));
    const item = chunkProcessed(read, { ...(countTokens ? { countTokens } : {}), ...(maxTokens ? { maxTokens } : {}) });
    return request.embed && embedder !== undefined ? withVectors(item, embedder) : item;
  }

  return {
    get load() {
      return queue.load;
    },
    get state() {
      return queue.state;
    },
    get recycled() {
      return created?.recycled ?? 0;
    },
    async close() {
      const started = pool;
      pool = undefined;
      await (await started?.catch(() => undefined))?.close();
    },
    async handle(req, res) {
      if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'use POST for /v1/convert');
      const declared = Number(req.headers['content-length'] ?? 0);
      if (declared > maxBodyBytes) {
        req.resume();
        throw new HttpError(413, 'request_too_large', `the request body is ${declared} bytes; the limit is ${maxBodyBytes}`);
      }
      let ticket: ReturnType<ConvertQueue['admit']>;
      try {
        // A body of unknown length counts as the largest allowed: the bytes bound must hold.
        ticket = queue.admit(Number.isFinite(declared) && declared > 0 ? declared : maxBodyBytes);
      } catch (error) {
        req.resume();
        throw error;
      }
      let converted = false;
      try {
        // The body is read while the document waits its turn: the bytes bound covers it.
        const [body] = await Promise.all([readBytes(req, maxBodyBytes), ticket.ready]);
        // A client that hung up while queued (its timeout ran out) costs no conversion.
        if (res.destroyed) return 499;
        converted = true;
        const began = performance.now();
        const request = parseConvertRequest(req, body);
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
        const answer = convertResponse(result, { chunks: request.chunks, tookMs: Math.round(performance.now() - began) });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer));
        return 200;
      } finally {
        ticket.release(converted);
      }
    },
  };
}
