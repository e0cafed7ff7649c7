/**
 * The web app `folio serve` shows at `/`: its files (public: they hold no data) and its JSON API
 * under `/api/` (behind the server's bearer token like every other route). See server/web for
 * the browser side and api-types.ts for what each route answers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Client } from '@elastic/elasticsearch';
import type { S3ConnectionOptions } from '../../connector/index.ts';
import { ConfigurationError, SourceError } from '../../core/errors.ts';
import type { Embedder } from '../../inference/embed/index.ts';
import type { OcrEngine } from '../../inference/engine.ts';
import { DEFAULT_INDEX, type LlmOptions } from '../../retrieval/index.ts';
import { HttpError } from '../http-error.ts';
import type { AppInfo } from './api-types.ts';
import { Assets } from './assets.ts';
import { createConvertRoute } from './convert-route.ts';
import { streamDocument } from './document-events.ts';
import { DocumentStore } from './documents.ts';
import { checkId, intParam, readJson, sendJson } from './http.ts';
import { PageImages, type PageImagesOptions } from './page-image.ts';
import { s3FromEnvironment } from './s3-input.ts';
import { createSearchRoute } from './search-route.ts';

export interface WebAppOptions {
  /** Elasticsearch URL for search, ask and indexed documents; without it only conversion works. @default undefined */
  readonly esUrl?: string;
  /** A client to use instead of `esUrl` (not closed by the app). @default undefined */
  readonly client?: Client;
  /** The chunk index. @default 'folio-chunks' */
  readonly index?: string;
  /**
   * The query embedder for kNN and hybrid search: an instance (the caller closes it) or a
   * factory called on first use (the app closes what it made). Absent: BM25 only.
   * @default undefined
   */
  readonly embedder?: Embedder | (() => Promise<Embedder>);
  /** An OpenAI-compatible chat endpoint that answers ask from the passages. @default undefined (passages only) */
  readonly llm?: LlmOptions;
  /** Largest file dropped on the app. @default 100 MiB */
  readonly maxUploadBytes?: number;
  /** How pages are rendered and cached. @default {} */
  readonly pageImages?: PageImagesOptions;
  /** The largest page image read (the server passes its `--max-pixels`). @default 100_000_000 */
  readonly maxPixels?: number;
  /**
   * How the convert view's `s3://bucket/key` sources are read; `false` refuses them.
   * @default on with the AWS SDK's own configuration when the server's environment names S3
   *   credentials or an endpoint (AWS_ACCESS_KEY_ID, AWS_PROFILE, AWS_ENDPOINT_URL_S3, …), else off
   */
  readonly s3?: S3ConnectionOptions | false;
}

export interface WebApp {
  /** The paths the app's files live at, served without a token. */
  ownsAsset(path: string): boolean;
  asset(res: ServerResponse, path: string): Promise<number>;
  /** Answers a `/api/…` request; the caller has checked the token. */
  api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<number>;
  close(): Promise<void>;
}

/**
 * @example
 * const server = await startOcrServer({ engine, app: { esUrl: 'http://127.0.0.1:9200', embedder: () => createLocalEmbedder() } });
 * // open server.url in a browser
 */
export async function createWebApp(options: Readonly<WebAppOptions> & { readonly engine: OcrEngine }): Promise<WebApp> {
  const { engine, esUrl, index = DEFAULT_INDEX, llm, maxUploadBytes, pageImages: imageOptions, maxPixels } = options;
  let client = options.client;
  const ownClient = client === undefined && esUrl !== undefined;
  if (ownClient) client = new (await import('@elastic/elasticsearch')).Client({ node: esUrl!, maxRetries: 1, requestTimeout: 30_000 });
  let made: Promise<Embedder> | undefined;
  const given = options.embedder;
  const embedder = given === undefined ? undefined : typeof given === 'function' ? () => (made ??= given()) : async () => given;
  const store = new DocumentStore({ engine, client, index, ...(maxPixels === undefined ? {} : { maxPixels }) });
  const images = new PageImages(imageOptions);
  const search = createSearchRoute({ client, index, embedder, llm });
  const s3 = options.s3 === false ? undefined : (options.s3 ?? s3FromEnvironment());
  const conversions = createConvertRoute({ engine, store, maxUploadBytes, ...(maxPixels === undefined ? {} : { maxPixels }), ...(s3 ? { s3 } : {}) });
  const assets = new Assets();

  /** A bad option is the caller's to fix (400); a source that cannot be read or rendered is 422, naming it. */
  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<number> {
    try {
      return await route(req, res, url);
    } catch (error) {
      if (error instanceof ConfigurationError) throw new HttpError(400, 'invalid_request_error', error.message);
      if (error instanceof SourceError) throw new HttpError(422, 'source_error', error.message);
      throw error;
    }
  }

  async function route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<number> {
    const method = req.method ?? 'GET';
    let parts: string[];
    try {
      parts = url.pathname.split('/').slice(2).map(decodeURIComponent);
    } catch {
      throw new HttpError(400, 'invalid_request_error', `the path ${url.pathname.slice(0, 200)} is not valid percent-encoding`);
    }
    const route = `${method} ${parts[0] ?? ''}`;
    if (route === 'GET info' && parts.length === 1) {
      const info: AppInfo = {
        index,
        search: client !== undefined,
        knn: embedder !== undefined,
        llm: llm !== undefined,
        engine: engine.name,
        s3: s3 !== undefined,
      };
      return sendJson(res, 200, info);
    }
    if (route === 'GET search' && parts.length === 1) {
      const q = url.searchParams;
      return sendJson(res, 200, await search.search({ query: q.get('q'), mode: q.get('mode'), k: q.get('k'), syntax: q.get('syntax') }));
    }
    if (route === 'POST ask' && parts.length === 1) {
      const body = await readJson(req, 64 * 1024);
      return sendJson(res, 200, await search.ask({ query: body['query'], mode: body['mode'], k: body['k'], syntax: body['syntax'] }));
    }
    if (route === 'POST convert' && parts.length === 1) return conversions.convert(req, res, url);
    if (route === 'GET documents' && parts.length === 2) return sendJson(res, 200, await store.view(checkId(parts[1]!)));
    if (route === 'GET documents' && parts.length === 3 && parts[2] === 'events') {
      // The page the viewer opens at is drawn before the reading starts, so its image comes first.
      const first = intParam('page', url.searchParams.get('page'), 1, 100_000, 1);
      return streamDocument(res, store, checkId(parts[1]!), { beforeReading: (doc) => images.png(doc, first).catch(() => undefined) });
    }
    if (route === 'GET documents' && parts.length === 4 && parts[2] === 'pages') {
      const id = checkId(parts[1]!);
      const page = intParam('page', parts[3], 1, 100_000, 1);
      const png = await images.png(await store.source(id), page);
      res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'private, max-age=300', 'content-length': png.byteLength });
      res.end(png);
      return 200;
    }
    if (route === 'GET conversions' && parts.length === 3) return conversions.download(res, checkId(parts[1]!), parts[2]!);
    throw new HttpError(404, 'not_found', `no API route for ${method} ${url.pathname}`);
  }

  return {
    ownsAsset: (path) => Assets.owns(path),
    asset: (res, path) => assets.serve(res, path),
    api,
    async close() {
      if (made) await (await made.catch(() => undefined))?.close();
      if (ownClient) await client?.close();
    },
  };
}
