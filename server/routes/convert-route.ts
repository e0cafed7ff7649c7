/**
 * `POST /api/convert?name=FILE`: the body is a document (or `?source=s3://bucket/key`, read by
 * the server when its environment configures S3: see s3-input.ts); the answer streams one JSON line per
 * event (started, each page as it is done, then the result), so the app shows progress per page.
 * The result stays in memory for viewing and for the Markdown and JSON downloads.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename } from 'node:path';
import { type S3ConnectionOptions, SUPPORTED_MIME_TYPES, sniffMime } from '../../connector/index.ts';
import { describeError } from '../../core/errors.ts';
import { sha256, stableId } from '../../core/hash.ts';
import type { SourceDocument } from '../../core/types.ts';
import type { OcrEngine } from '../../inference/engine.ts';
import { READABLE_TYPES } from '../../pipeline/formats/mime.ts';
import { openPdf } from '../../pipeline/pdf/index.ts';
import { convertDetail } from '../../pipeline/run/index.ts';
import { HttpError } from '../http-error.ts';
import { analyse } from './analysis.ts';
import type { ConvertEvent } from './api-types.ts';
import { conversionView, type DocumentStore } from './documents.ts';
import { readBytes } from './http.ts';
import { readS3Input } from './s3-input.ts';

export interface ConvertRouteOptions {
  readonly engine: OcrEngine;
  readonly store: DocumentStore;
  /** Largest upload. @default 100 MiB */
  readonly maxUploadBytes?: number;
  /** Conversions running at once; more get 429. @default 2 */
  readonly concurrency?: number;
  /** The largest page image (the server's `--max-pixels`). @default 100_000_000 */
  readonly maxPixels?: number;
  /** How `s3://` sources are read; undefined refuses them (403, saying why). @default undefined */
  readonly s3?: S3ConnectionOptions;
}

export function createConvertRoute(options: Readonly<ConvertRouteOptions>): {
  convert(req: IncomingMessage, res: ServerResponse, url: URL): Promise<number>;
  download(res: ServerResponse, id: string, format: string): number;
} {
  const { engine, store, maxUploadBytes = 100 * 1024 * 1024, concurrency = 2, maxPixels, s3 } = options;
  let running = 0;

  /** The document to convert: the uploaded body, or the S3 object `?source=` names. */
  async function input(req: IncomingMessage, url: URL): Promise<{ name: string; doc: SourceDocument }> {
    const source = url.searchParams.get('source');
    if (source !== null && source !== '') {
      const doc = await readS3Input(source, { s3, maxBytes: maxUploadBytes });
      return { name: basename(doc.relativePath).slice(0, 200) || 'object', doc };
    }
    const name = basename(url.searchParams.get('name') ?? '').slice(0, 200) || 'upload';
    const bytes = new Uint8Array(await readBytes(req, maxUploadBytes));
    if (bytes.byteLength === 0) throw new HttpError(400, 'invalid_request_error', `${name}: the file is empty (0 bytes)`);
    const mime = sniffMime(bytes, name);
    if (!SUPPORTED_MIME_TYPES.has(mime))
      throw new HttpError(415, 'unsupported_media_type', `${name}: unsupported content (sniffed as ${mime}); Folio reads ${READABLE_TYPES}`);
    const contentHash = sha256(bytes);
    return { name, doc: { id: stableId('upload', name, contentHash), uri: name, relativePath: name, mime, bytes, contentHash } };
  }

  async function convert(req: IncomingMessage, res: ServerResponse, url: URL): Promise<number> {
    if (running >= concurrency)
      throw new HttpError(429, 'too_many_conversions', `${concurrency} conversions are already running; try again when one has finished`, {
        'retry-after': '2',
      });
    running++;
    try {
      const { name, doc } = await input(req, url);
      const id = `c${randomUUID().replaceAll('-', '').slice(0, 15)}`;
      const pages = await countPages(doc);
      const stop = new AbortController();
      res.on('close', () => {
        if (!res.writableEnded) stop.abort();
      });
      res.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
      const send = (event: ConvertEvent): void => {
        if (!res.destroyed) res.write(`${JSON.stringify(event)}\n`);
      };
      send({ type: 'started', id, name, ...(pages !== undefined ? { pages } : {}) });
      let done = 0;
      try {
        const result = await analyse(doc, {
          engine,
          ...(maxPixels === undefined ? {} : { maxPixels }),
          signal: stop.signal,
          onPage: ({ pageNumber, engine: used }) => send({ type: 'page', pageNumber, engine: used, done: ++done, ...(pages !== undefined ? { pages } : {}) }),
        });
        const conversion = { id, name, result };
        store.addConversion(conversion);
        send({ type: 'done', id, document: conversionView(conversion) });
      } catch (error) {
        send({ type: 'failed', id, reason: `${name}: ${describeError(error)}` });
      }
      res.end();
      return 200;
    } finally {
      running--;
    }
  }

  function download(res: ServerResponse, id: string, format: string): number {
    const { name, result } = store.conversion(id);
    const base = name.replace(/\.[^.]+$/, '');
    if (format !== 'markdown' && format !== 'json') throw new HttpError(404, 'not_found', `no download \`${format}\`; use markdown or json`);
    const [type, body, extension] =
      format === 'markdown'
        ? ['text/markdown; charset=utf-8', result.markdown, 'md']
        : ['application/json; charset=utf-8', JSON.stringify(convertDetail(result), null, 1), 'json'];
    res.writeHead(200, {
      'content-type': type,
      'content-disposition': `attachment; filename="${encodeURIComponent(`${base}.${extension}`)}"`,
      'cache-control': 'no-store',
    });
    res.end(body);
    return 200;
  }

  return { convert, download };
}

/** Pages of the document when cheap to know up front (for "page 3 of 12"); undefined otherwise. */
async function countPages(doc: SourceDocument): Promise<number | undefined> {
  try {
    if (doc.mime === 'application/pdf') {
      const pdf = await openPdf(doc.bytes, { source: doc.uri });
      try {
        return pdf.numPages;
      } finally {
        await pdf.close();
      }
    }
    if (doc.mime.startsWith('image/')) {
      const sharp = (await import('sharp')).default;
      return Math.max(1, (await sharp(doc.bytes, { limitInputPixels: false }).metadata()).pages ?? 1);
    }
    // Markdown splits into pages only as it is parsed.
    return undefined;
  } catch {
    // An unreadable file is reported by the pipeline with its reason; the count is only a nicety.
    return undefined;
  }
}
