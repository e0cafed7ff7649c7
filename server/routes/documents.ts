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
import type { SourceDocument } from '../../core/types.ts';
import type { OcrEngine } from '../../inference/engine.ts';
import type { ProcessedDocument } from '../../pipeline/run/index.ts';
import { HttpError } from '../http-error.ts';
import { analyse, attachmentViews, chunkViews, failureViews, pageViews } from './analysis.ts';
import type { DocumentView, FailureView, PageView } from './api-types.ts';
import { findIndexed, type IndexedDocument } from './indexed.ts';
import { Lru } from './lru.ts';

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

export class DocumentStore {
  readonly #options: Readonly<DocumentStoreOptions>;
  readonly #conversions: Lru<Conversion>;
  readonly #analyses = new Lru<Promise<ProcessedDocument>>({ maxEntries: 8 });

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

  async view(id: string): Promise<DocumentView> {
    const conversion = this.#conversions.get(id);
    if (conversion) return conversionView(conversion);
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
    if ('problem' in loaded) return { ...base, problem: loaded.problem, pages: pagesFromChunks(indexed), failures: indexed.failures };
    const result = await this.#analyse(loaded.doc);
    const changed = indexed.contentHash !== undefined && indexed.contentHash !== loaded.doc.contentHash;
    return {
      ...base,
      mime: loaded.doc.mime,
      ...(changed
        ? { warning: `${base.name} changed since it was indexed (its content hash differs): the boxes of the indexed chunks may not match the page` }
        : {}),
      pages: pageViews(result),
      failures: mergeFailures(indexed.failures, failureViews(result)),
      ...withAttachments(result),
    };
  }

  /** The source bytes of a document, for rendering its pages; 410 when the file is gone. */
  async source(id: string): Promise<SourceDocument> {
    const conversion = this.#conversions.get(id);
    if (conversion) return conversion.result.doc;
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

  #analyse(doc: SourceDocument): Promise<ProcessedDocument> {
    const key = `${doc.id}:${doc.contentHash}`;
    let analysis = this.#analyses.get(key);
    if (!analysis) {
      const { engine, maxPixels } = this.#options;
      analysis = analyse(doc, { engine, ...(maxPixels === undefined ? {} : { maxPixels }) });
      this.#analyses.set(key, analysis);
      analysis.catch(() => this.#analyses.delete(key));
    }
    return analysis;
  }
}

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
    source: name,
    name,
    mime: result.doc.mime,
    status: result.ok && result.failures.length === 0 ? 'converted' : result.ok ? 'converted with failures' : 'failed',
    pages: pageViews(result),
    chunks: chunkViews(result),
    failures: failureViews(result),
    ...withAttachments(result),
    downloads: { markdown: `/api/conversions/${id}/markdown`, json: `/api/conversions/${id}/json` },
  };
}
