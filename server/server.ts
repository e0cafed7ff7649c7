/**
 * `folio serve`: an OpenAI-compatible OCR server over a local engine, so many ingest workers can
 * share one GPU box. `POST /v1/chat/completions` (JSON or server-sent events), `GET /v1/models`,
 * `GET /health`. Requests are validated, optionally authenticated, queued with a bound and
 * batched into engine calls; `close()` lets in-flight requests finish.
 */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigurationError } from '../core/errors.ts';
import type { OcrEngine } from '../inference/engine.ts';
import { layoutOcrResult } from '../pipeline/layout/index.ts';
import { Batcher } from './batcher.ts';
import { type ConvertEmbedder, createConvertRoute } from './convert.ts';
import type { ConvertQueueOptions } from './convert-queue.ts';
import type { FetchGuardOptions } from './fetch-guard.ts';
import { HttpError } from './http-error.ts';
import { jsonLogger, type Logger } from './log.ts';
import openapi from './openapi.json' with { type: 'json' };
import { parseOcrRequest } from './request.ts';
import { createWebApp, type WebAppOptions } from './routes/index.ts';

export interface OcrServerOptions {
  readonly engine: OcrEngine;
  /** Model names clients may ask for. @default ['folio-' + engine.name] */
  readonly models?: readonly string[];
  /** @default 8000 (0 picks a free port) */
  readonly port?: number;
  /** @default '127.0.0.1' */
  readonly host?: string;
  /** Require `Authorization: Bearer <token>` when set. */
  readonly token?: string;
  /** @default 50 MiB */
  readonly maxBodyBytes?: number;
  /** The largest page image on every route (chat images, `/v1/convert` pages and images, the app). @default 40 million */
  readonly maxPixels?: number;
  /** Pages per engine call. @default 8 */
  readonly batchSize?: number;
  /** Requests queued or running before 429. @default 64 */
  readonly queueLimit?: number;
  /** @default jsonLogger */
  readonly log?: Logger;
  /** Vectors for `POST /v1/convert` with `embed: true`. @default none (such requests are a 400) */
  readonly embedder?: ConvertEmbedder;
  /** URL fetching for `/v1/convert`: allowed hosts and limits. @default undefined (off) */
  readonly fetch?: Readonly<FetchGuardOptions>;
  /** Documents converting at once; the next ones queue. @default 8 */
  readonly convertLimit?: number;
  /** Bounds of `/v1/convert`'s queue (documents, bytes, expected wait) before 429. @default see `ConvertQueueOptions` */
  readonly convertQueue?: Readonly<Omit<ConvertQueueOptions, 'concurrency'>>;
  /** How long `close()` waits for in-flight requests before cutting connections, in ms. @default 60000 */
  readonly closeTimeoutMs?: number;
  /** `/v1/convert`'s worker threads end after this long without a document, in ms (their memory goes back); 0 keeps them. @default 60000 */
  readonly convertIdleMs?: number;
  /** Serve the web app at `/` and its API under `/api/` (see server/routes). @default undefined (no app) */
  readonly app?: WebAppOptions;
}

export interface OcrServer {
  readonly url: string;
  /** Stop accepting connections and resolve once in-flight requests have finished. */
  close(): Promise<void>;
}

export async function startOcrServer(options: Readonly<OcrServerOptions>): Promise<OcrServer> {
  const {
    engine,
    models = [`folio-${engine.name}`],
    port = 8000,
    host = '127.0.0.1',
    token,
    maxBodyBytes = 50 * 1024 * 1024,
    maxPixels = 40_000_000,
    batchSize = 8,
    queueLimit = 64,
    log = jsonLogger,
    closeTimeoutMs = 60_000,
    embedder,
    fetch,
    convertLimit,
    convertQueue,
    convertIdleMs,
  } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`port\` to be an integer from 0 to 65535, got \`${port}\``);
  const batcher = new Batcher(engine, { batchSize, queueLimit });
  const app = options.app ? await createWebApp({ maxPixels, ...options.app, engine }) : undefined;
  const convert = createConvertRoute({
    engineName: engine.name,
    batcher,
    maxBodyBytes,
    maxPixels,
    ...(embedder ? { embedder } : {}),
    ...(fetch ? { fetch } : {}),
    ...(convertLimit ? { convertLimit } : {}),
    ...(convertQueue ? { queue: convertQueue } : {}),
    ...(convertIdleMs === undefined ? {} : { idleMs: convertIdleMs }),
  });
  const started = Date.now();
  let closing = false;

  function authorised(req: IncomingMessage): boolean {
    if (!token) return true;
    const given = Buffer.from(req.headers.authorization ?? '');
    const expected = Buffer.from(`Bearer ${token}`);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBodyBytes) throw new HttpError(413, 'request_too_large', `the request body is ${declared} bytes; the limit is ${maxBodyBytes}`);
    const parts: Buffer[] = [];
    let size = 0;
    for await (const part of req) {
      size += (part as Buffer).length;
      if (size > maxBodyBytes) throw new HttpError(413, 'request_too_large', `the request body exceeds ${maxBodyBytes} bytes`);
      parts.push(part as Buffer);
    }
    return Buffer.concat(parts).toString('utf8');
  }

  async function completions(req: IncomingMessage, res: ServerResponse, id: string): Promise<number> {
    const request = await parseOcrRequest(await readBody(req), { models, maxPixels, requestId: id });
    // The batcher hands back what the engine read; a positioned page is laid out here, off the
    // batch, like the pipeline lays out the pages it sends (`pipeline/run/ocr-queue.ts`).
    const result = layoutOcrResult(await batcher.submit(request.image), request.image.pageNumber);
    if (res.destroyed) return 499;
    const created = Math.floor(Date.now() / 1000);
    const tokens = result.stats.tokens ?? 0;
    const usage = { prompt_tokens: 0, completion_tokens: tokens, total_tokens: tokens };
    if (!request.stream) {
      send(res, 200, {
        id: `chatcmpl-${id}`,
        object: 'chat.completion',
        created,
        model: request.model,
        choices: [{ index: 0, message: { role: 'assistant', content: result.markdown }, finish_reason: 'stop' }],
        usage,
      });
      return 200;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const chunk = (delta: object, finish: string | null, extra: object = {}): string =>
      `data: ${JSON.stringify({ id: `chatcmpl-${id}`, object: 'chat.completion.chunk', created, model: request.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
    res.write(chunk({ role: 'assistant', content: result.markdown }, null));
    res.write(chunk({}, 'stop', { usage }));
    res.end('data: [DONE]\n\n');
    return 200;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<number> {
    const id = randomUUID().slice(0, 12);
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/health') {
      send(res, closing ? 503 : 200, {
        status: closing ? 'closing' : 'ok',
        engine: engine.name,
        load: batcher.load,
        uptime_s: Math.round((Date.now() - started) / 1000),
        // What a client (the Elasticsearch plugin) sizes its calls by: `accepts` documents at
        // once are converted or queued, more are a 429 with the queue's wait in Retry-After.
        convert: { ...convert.state, max_body_bytes: maxBodyBytes },
      });
      return res.statusCode;
    }
    if (app?.ownsAsset(path ?? '') && req.method === 'GET') return app.asset(res, path ?? '/');
    if (req.method === 'GET' && path === '/openapi.json') {
      send(res, 200, openapi);
      return 200;
    }
    if (!authorised(req)) throw new HttpError(401, 'invalid_api_key', 'missing or wrong bearer token');
    if (app && path?.startsWith('/api/')) return app.api(req, res, new URL(req.url ?? '/', 'http://localhost'));
    if (req.method === 'GET' && path === '/v1/models') {
      send(res, 200, { object: 'list', data: models.map((m) => ({ id: m, object: 'model', owned_by: 'folio', created: Math.floor(started / 1000) })) });
      return 200;
    }
    if (path === '/v1/chat/completions') {
      if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'use POST for /v1/chat/completions');
      if (closing) throw new HttpError(503, 'server_closing', 'the server is shutting down', { 'retry-after': '1' });
      return completions(req, res, id);
    }
    if (path === '/v1/convert') {
      if (closing) throw new HttpError(503, 'server_closing', 'the server is shutting down', { 'retry-after': '1' });
      return convert.handle(req, res);
    }
    throw new HttpError(404, 'not_found', `no route for ${req.method} ${path}`);
  }

  const server = createServer((req, res) => {
    const begun = performance.now();
    res.on('close', () => {
      if (!res.writableEnded) log('warn', 'client disconnected', { path: req.url, ms: Math.round(performance.now() - begun) });
    });
    handle(req, res)
      .catch((error: unknown) => {
        const http = error instanceof HttpError ? error : new HttpError(500, 'server_error', error instanceof Error ? error.message : String(error));
        if (!res.headersSent && !res.destroyed) {
          res.writeHead(http.status, { 'content-type': 'application/json', ...http.headers });
          res.end(http.body());
        }
        if (http.status >= 500) log('error', http.message, { path: req.url });
        return http.status;
      })
      .then((status) => {
        log('info', 'request', { method: req.method, path: req.url, status, ms: Math.round(performance.now() - begun) });
      });
  });
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(new ConfigurationError('FOLIO_SERVE_LISTEN', `cannot listen on ${host}:${port}: ${error.message}`, { cause: error })),
    );
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  const url = `http://${host}:${address.port}`;
  log('info', 'listening', { url, engine: engine.name, models: models.join(',') });

  return {
    url,
    async close() {
      closing = true;
      // server.close() stops accepting, ends idle keep-alive connections and calls back once
      // the busy ones have answered; a hard limit keeps a stuck client from holding shutdown.
      const finished = new Promise<void>((resolve) => server.close(() => resolve()));
      const limit = setTimeout(() => server.closeAllConnections(), closeTimeoutMs);
      await finished;
      clearTimeout(limit);
      await convert.close();
      await app?.close();
      log('info', 'closed', { url });
    },
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
