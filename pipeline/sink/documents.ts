/**
 * The one place where Folio's records become index documents: camelCase records in, the
 * mapping's snake_case fields out (see `mappings/*.json`).
 */
import { stableId } from '../../core/hash.ts';
import type { Chunk, FailureRecord } from '../../core/types.ts';
import type { DocumentMark } from './types.ts';

/** A chunk as the chunk index stores it. */
export interface ChunkDocument {
  readonly id: string;
  readonly doc_id: string;
  /** The document this chunk's document is an attachment of. */
  readonly parent_id?: string;
  readonly source: string;
  readonly title?: string;
  readonly text: string;
  readonly vector?: readonly number[];
  readonly heading_path: readonly string[];
  readonly pages: readonly number[];
  readonly kind: readonly string[];
  readonly table?: { readonly html: string; readonly rows_text: readonly string[]; readonly header: readonly string[] };
  readonly formulas?: readonly { readonly latex: string; readonly valid: boolean }[];
  readonly bboxes: readonly { readonly page: number; readonly bbox: readonly number[] }[];
  readonly lines?: { readonly from: number; readonly to: number };
  /** Sheets and cell ranges, or slides, of a spreadsheet's or presentation's chunk. */
  readonly locations?: readonly { readonly sheet?: string; readonly range?: string; readonly slide?: number }[];
  readonly content_hash: string;
  readonly ingested_at: string;
  readonly engine: string;
  readonly quality?: { readonly score: number; readonly passed: boolean; readonly reasons: readonly string[] };
  readonly chunk_index: number;
  readonly tokens: number;
}

/**
 * Map a chunk to its index document. Optional parts are left out rather than set to null, so a
 * chunk without a vector (no embedder) indexes fine.
 *
 * @example
 * const doc = chunkToDocument(chunk, { ingestedAt: new Date().toISOString() })
 */
export function chunkToDocument(chunk: Chunk, options: Readonly<{ ingestedAt?: string }> = {}): ChunkDocument {
  const { ingestedAt = new Date().toISOString() } = options;
  return {
    id: chunk.id,
    doc_id: chunk.docId,
    ...(chunk.parentId === undefined ? {} : { parent_id: chunk.parentId }),
    source: chunk.source,
    ...(chunk.title === undefined ? {} : { title: chunk.title }),
    text: chunk.text,
    // A plain array (a Float32Array would serialise as an object of indices), with 9 significant
    // digits: exactly what a float32 holds, and about half the bytes of a double's 17 digits.
    ...(chunk.vector === undefined ? {} : { vector: Array.from(chunk.vector, toFloat32Digits) }),
    heading_path: chunk.headingPath,
    pages: chunk.pages,
    kind: chunk.kinds,
    ...(chunk.table === undefined ? {} : { table: { html: chunk.table.html, rows_text: chunk.table.rowsText, header: chunk.table.header } }),
    ...(chunk.formulas === undefined ? {} : { formulas: chunk.formulas.map(({ latex, valid }) => ({ latex, valid })) }),
    bboxes: chunk.bboxes.map(({ page, bbox }) => ({ page, bbox: [...bbox] })),
    ...(chunk.lines === undefined ? {} : { lines: { from: chunk.lines.from, to: chunk.lines.to } }),
    ...(chunk.locations === undefined ? {} : { locations: chunk.locations }),
    content_hash: chunk.contentHash,
    ingested_at: ingestedAt,
    engine: chunk.engine,
    ...(chunk.quality === undefined ? {} : { quality: { score: chunk.quality.score, passed: chunk.quality.passed, reasons: chunk.quality.reasons } }),
    chunk_index: chunk.index,
    tokens: chunk.tokens,
  };
}

function toFloat32Digits(value: number): number {
  return Number.isFinite(value) ? Number(value.toPrecision(9)) : value;
}

/** The `_id` of a document's sync record: one documents index serves several chunk indices. */
export function documentRecordId(index: string, docId: string): string {
  return stableId('document', index, docId);
}

/** A document's sync record as the documents index stores it. */
export interface DocumentRecord {
  readonly index: string;
  readonly doc_id: string;
  readonly source: string;
  readonly content_hash: string;
  /** The source's version of the document (S3 ETag, size and date; HTTP validators), when it has one. */
  readonly source_version?: string;
  readonly page_hashes?: readonly string[];
  /** The document this one is an attachment of. */
  readonly parent_id?: string;
  /** Its attachments, child documents of their own. */
  readonly children?: readonly string[];
  readonly status: 'indexed' | 'failed';
  readonly reason?: string;
  readonly pages: number;
  readonly chunks: number;
  readonly failed_chunks: number;
  readonly updated_at: string;
}

/** @example documentRecord(mark, { index: 'folio-chunks', failedChunks: 0 }) */
export function documentRecord(mark: DocumentMark, options: Readonly<{ index: string; failedChunks?: number; reason?: string }>): DocumentRecord {
  const { index, failedChunks = 0 } = options;
  const reason = options.reason ?? mark.reason;
  return {
    index,
    doc_id: mark.docId,
    source: mark.source,
    content_hash: mark.contentHash,
    ...(mark.version === undefined ? {} : { source_version: mark.version }),
    ...(mark.pageHashes === undefined ? {} : { page_hashes: mark.pageHashes }),
    ...(mark.parentId === undefined ? {} : { parent_id: mark.parentId }),
    ...(mark.children === undefined ? {} : { children: mark.children }),
    status: failedChunks > 0 ? 'failed' : mark.status,
    ...(reason === undefined ? {} : { reason }),
    pages: mark.pages,
    chunks: mark.chunks,
    failed_chunks: failedChunks,
    updated_at: new Date().toISOString(),
  };
}

/** A failure record as the failures index stores it. */
export interface FailureDocument {
  readonly index: string;
  readonly source: string;
  readonly doc_id?: string;
  readonly page_number?: number;
  readonly chunk_id?: string;
  readonly stage: string;
  readonly code: string;
  readonly reason: string;
  readonly at: string;
}

export function failureToDocument(record: FailureRecord, index: string): FailureDocument {
  return {
    index,
    source: record.source,
    ...(record.docId === undefined ? {} : { doc_id: record.docId }),
    ...(record.pageNumber === undefined ? {} : { page_number: record.pageNumber }),
    ...(record.chunkId === undefined ? {} : { chunk_id: record.chunkId }),
    stage: record.stage,
    code: record.code,
    reason: record.reason,
    at: record.at,
  };
}

/**
 * The `_id` of a failure: the same failure in a rerun overwrites its record (with the new time)
 * instead of piling up copies.
 */
export function failureId(record: FailureRecord, index: string): string {
  return stableId('failure', index, record.source, record.docId ?? '', record.pageNumber ?? '', record.chunkId ?? '', record.stage, record.code);
}
