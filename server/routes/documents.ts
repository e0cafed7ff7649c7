/**
 * The documents the viewer shows: indexed ones (chunks from Elasticsearch, pages and elements read
 * again from the source file, cached) and conversions dropped on the app (kept in memory). A
 * source that is gone or not a local file is reported in the view, never thrown past it.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@elastic/elasticsearch';
import { sniffMime } from '../../connector/index.ts';
import { sha256 } from '../../core/hash.ts';
import { Lru } from '../../core/lru.ts';
import type { SourceDocument } from '../../core/types.ts';
import type { OcrEngine } from '../../inference/engine.ts';
import type { ProcessedDocument } from '../../pipeline/run/index.ts';
import { HttpError } from '../http-error.ts';
import { attachmentViews, chunkViews, failureViews, pageViews } from './analysis.ts';
import type { DocumentView, FailureView, PageView } from './api-types.ts';
import { findIndexed, type IndexedDocument } from './indexed.ts';
import { LiveAnalysis } from './live-analysis.ts';
import { outlinePages } from './outline.ts';

export interface Conversion {
  readonly id: string;
  readonly name: string;
  readonly result: ProcessedDocument;
}

export interface DocumentStoreOptions {
  readonly engine: OcrEngine;
  /** The largest page image (the server's `--max-pixels`). @default 100_000_000 */
  readonly maxPixels?: number;
  /** Absent when the server has no Elasticsearch: only conversions are found. */
  readonly client?: Client;
  readonly index: string;
  /** Conversions kept for viewing and download. @default 16 */
  readonly keepConversions?: number;
}

type Loaded = { readonly doc: SourceDocument } | { readonly problem: string };

export interface OpenOptions {
  /**
   * Work to finish before the document's reading starts (which holds the thread between pages):
   * the page image the viewer asks for first. Its failure is the caller's to swallow.
   * @default undefined
   */
  readonly beforeReading?: (doc: SourceDocument) => Promise<unknown>;
}

/**
 * A document as the view opens it: finished (a conversion, a source that cannot be read, an
 * analysis already done), or being read, with its pages outlined and the analysis to follow.
 */
export type OpenedDocument = { readonly view: DocumentView } | { readonly outline: DocumentView; readonly live: LiveAnalysis; finish(): Promise<DocumentView> };

export class DocumentStore {
  readonly #options: Readonly<DocumentStoreOptions>;
  readonly #conversions: Lru<Conversion>;
  readonly #analyses = new Lru<LiveAnalysis>({ maxEntries: 8 });
  /** Sources of the documents opened last: their page images are asked for while they are read, and need no second lookup. */
  readonly #opened = new Lru<SourceDocument>({ maxEntries: 8 });

  constructor(options: Readonly<DocumentStoreOptions>) {
    this.#options = options;
    this.#conversions = new Lru({ maxEntries: options.keepConversions ?? 16 });
  }

  addConversion(conversion: Conversion): void {
    this.#conversions.set(conversion.id, conversion);
  }

  conversion(id: string): Conversion {
    const found = this.#conversions.get(id);
    if (!found)
      throw new HttpError(
        404,
        'not_found',
        `no conversion \`${id}\` on this server (conversions are kept in memory until the server restarts; the last ${this.#options.keepConversions ?? 16} are kept)`,
      );
    return found;
  }

  /** The whole view of a document, once every page is read. */
  async view(id: string): Promise<DocumentView> {
    const opened = await this.open(id);
    return 'view' in opened ? opened.view : opened.finish();
  }

  /**
   * The document's view if it is ready, else its outline (pages sized, none read yet) and the
   * running analysis, whose pages can be shown as they come.
   */
  async open(id: string, options: Readonly<OpenOptions> = {}): Promise<OpenedDocument> {
    const conversion = this.#conversions.get(id);
    if (conversion) return { view: conversionView(conversion) };
    const indexed = await this.#indexed(id);
    const loaded = await loadSource(indexed);
    const base = {
      id,
      origin: 'indexed' as const,
      source: indexed.source,
      name: nameOf(indexed.source),
      ...(indexed.title ? { title: indexed.title } : {}),
      ...(indexed.status ? { status: indexed.status } : {}),
      chunks: indexed.chunks,
    };
    if ('problem' in loaded) {
      this.#opened.delete(id);
      return { view: { ...base, problem: loaded.problem, pages: pagesFromChunks(indexed), failures: indexed.failures } };
    }
    this.#opened.set(id, loaded.doc);
    const changed = indexed.contentHash !== undefined && indexed.contentHash !== loaded.doc.contentHash;
    const head = {
      ...base,
      mime: loaded.doc.mime,
      ...(changed
        ? { warning: `${base.name} changed since it was indexed (its content hash differs): the boxes of the indexed chunks may not match the page` }
        : {}),
    };
    // Outlined before the analysis starts: a page's reading holds the thread between pages.
    const outline = this.#analyses.get(analysisKey(loaded.doc))?.settled
      ? undefined
      : await outlinePages(
          loaded.doc,
          indexed.chunks.flatMap((c) => c.pages),
        );
    if (outline !== undefined) await options.beforeReading?.(loaded.doc);
    const live = this.#analysis(loaded.doc);
    const finish = async (): Promise<DocumentView> => {
      const result = await live.result;
      return { ...head, pages: pageViews(result), failures: mergeFailures(indexed.failures, failureViews(result)), ...withAttachments(result) };
    };
    if (live.settled || outline === undefined) return { view: await finish() };
    return { outline: { ...head, pages: outline, failures: indexed.failures }, live, finish };
  }

  /** The source bytes of a document, for rendering its pages; 410 when the file is gone. */
  async source(id: string): Promise<SourceDocument> {
    const conversion = this.#conversions.get(id);
    if (conversion) return conversion.result.doc;
    const opened = this.#opened.get(id);
    if (opened) return opened;
    const loaded = await loadSource(await this.#indexed(id));
    if ('problem' in loaded) throw new HttpError(410, 'source_unavailable', loaded.problem);
    return loaded.doc;
  }

  async #indexed(id: string): Promise<IndexedDocument> {
    const { client, index } = this.#options;
    if (!client)
      throw new HttpError(
        404,
        'not_found',
        `no conversion \`${id}\` on this server, and no Elasticsearch to look the document up in (start folio serve with --es URL)`,
      );
    let found: IndexedDocument | undefined;
    try {
      found = await findIndexed(client, index, id);
    } catch (error) {
      const type = (error as { meta?: { body?: { error?: { type?: string } } } }).meta?.body?.error?.type;
      if (type === 'index_not_found_exception')
        throw new HttpError(404, 'not_found', `the index \`${index}\` does not exist: ingest documents into it first (folio ingest … --index ${index})`);
      throw new HttpError(
        502,
        'elasticsearch_error',
        `looking up document \`${id}\` in \`${index}\` failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (!found) throw new HttpError(404, 'not_found', `no document \`${id}\` in the index \`${index}\``);
    return found;
  }

  #analysis(doc: SourceDocument): LiveAnalysis {
    const key = analysisKey(doc);
    let analysis = this.#analyses.get(key);
    if (!analysis) {
      const { engine, maxPixels } = this.#options;
      const started = new LiveAnalysis(doc, { engine, ...(maxPixels === undefined ? {} : { maxPixels }) });
      this.#analyses.set(key, started);
      started.result.catch(() => this.#analyses.delete(key));
      analysis = started;
    }
    return analysis;
  }
}

const analysisKey = (doc: SourceDocument): string => `${doc.id}:${doc.contentHash}`;

function nameOf(source: string): string {
  return basename(source.startsWith('file:') ? fileURLToPath(source) : source) || source;
}

/** The file behind an indexed document's `source`, or why it cannot be read. */
async function loadSource(indexed: IndexedDocument): Promise<Loaded> {
  const { source, docId, chunks } = indexed;
  const listed = `the ${chunks.length} indexed chunk${chunks.length === 1 ? ' is' : 's are'} listed without the page`;
  if (/^https?:/i.test(source)) return { problem: `${source} (document ${docId}) is a URL: the viewer renders pages from local files only; ${listed}` };
  const path = source.startsWith('file:') ? fileURLToPath(source) : source;
  let buffer: Buffer;
  try {
    buffer = await readFile(path);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT')
      return { problem: `${path} (document ${docId}) was deleted or moved since it was indexed: its pages cannot be rendered or read again; ${listed}` };
    return { problem: `${path} (document ${docId}) cannot be read (${code ?? (error instanceof Error ? error.message : String(error))}); ${listed}` };
  }
  const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  return { doc: { id: docId, uri: source, relativePath: basename(path), mime: sniffMime(bytes, path), bytes, contentHash: sha256(bytes) } };
}

/** Without the source, the pages the chunks name are all there is to show. */
function pagesFromChunks(indexed: IndexedDocument): PageView[] {
  const pages = [...new Set(indexed.chunks.flatMap((c) => c.pages))].sort((a, b) => a - b);
  return pages.map((pageNumber) => ({ pageNumber, engine: 'unknown', reason: 'source-unavailable', elements: [] }));
}

function mergeFailures(a: readonly FailureView[], b: readonly FailureView[]): FailureView[] {
  const seen = new Set<string>();
  return [...a, ...b].filter((f) => {
    const key = `${f.code}|${f.pageNumber ?? ''}|${f.reason}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function withAttachments(result: ProcessedDocument): Pick<DocumentView, 'attachments'> {
  const attachments = attachmentViews(result);
  return attachments === undefined ? {} : { attachments };
}

export function conversionView(conversion: Conversion): DocumentView {
  const { id, name, result } = conversion;
  return {
    id,
    origin: 'converted',
    source: result.doc.uri,
    name,
    ...(result.title === undefined ? {} : { title: result.title }),
    mime: result.doc.mime,
    status: result.ok && result.failures.length === 0 ? 'converted' : result.ok ? 'converted with failures' : 'failed',
    pages: pageViews(result),
    chunks: chunkViews(result),
    failures: failureViews(result),
    ...withAttachments(result),
    downloads: { markdown: `/api/conversions/${id}/markdown`, json: `/api/conversions/${id}/json` },
  };
}
