/**
 * The JSON answer of `POST /v1/convert`: a processed document in the index's snake_case, so a
 * client (the Elasticsearch plugin) can store it as it comes. Chunks use the chunk index's own
 * mapping function, so both paths into Elasticsearch write the same fields.
 */
import type { Element, FailureRecord } from '../core/types.ts';
import type { ProcessedDocument } from '../pipeline/run/process-document.ts';
import { type ChunkDocument, chunkToDocument } from '../pipeline/sink/documents.ts';

export interface ConvertResponse {
  readonly source: string;
  readonly doc_id: string;
  readonly content_hash: string;
  readonly mime: string;
  /** The document's title (declared by the file unless junk, else its title page's); every chunk carries it too. */
  readonly title?: string;
  /** False when the document could not be read at all (`failures` says why). */
  readonly ok: boolean;
  readonly markdown: string;
  readonly pages: readonly {
    page_number: number;
    engine: string;
    reason: string;
    quality?: { score: number; passed: boolean; reasons: readonly string[] };
    failed?: string;
  }[];
  readonly elements: readonly ElementJson[];
  /** Left out when the request asked for `chunks: false`. */
  readonly chunks?: readonly ChunkDocument[];
  readonly failures: readonly { source: string; stage: string; code: string; reason: string; page_number?: number }[];
  readonly took_ms: number;
}

interface ElementJson {
  readonly kind: string;
  readonly text: string;
  readonly markdown?: string;
  readonly level?: number;
  readonly heading_path: readonly string[];
  readonly page_number: number;
  readonly pages: readonly number[];
  readonly bbox?: readonly number[];
  readonly bboxes?: readonly { page: number; bbox: readonly number[] }[];
  readonly label?: string;
}

function element(e: Element): ElementJson {
  return {
    kind: e.kind,
    text: e.text,
    ...(e.markdown === undefined ? {} : { markdown: e.markdown }),
    ...(e.level === undefined ? {} : { level: e.level }),
    heading_path: e.headingPath,
    page_number: e.pageNumber,
    pages: e.pages,
    ...(e.bbox === undefined ? {} : { bbox: [...e.bbox] }),
    ...(e.bboxes === undefined ? {} : { bboxes: e.bboxes.map(({ page, bbox }) => ({ page, bbox: [...bbox] })) }),
    ...(e.label === undefined ? {} : { label: e.label }),
  };
}

function failure(f: FailureRecord): ConvertResponse['failures'][number] {
  return { source: f.source, stage: f.stage, code: f.code, reason: f.reason, ...(f.pageNumber === undefined ? {} : { page_number: f.pageNumber }) };
}

export function convertResponse(result: ProcessedDocument, options: Readonly<{ chunks: boolean; tookMs: number }>): ConvertResponse {
  const { doc } = result;
  const ingestedAt = new Date().toISOString();
  return {
    source: doc.uri,
    doc_id: doc.id,
    content_hash: doc.contentHash,
    mime: doc.mime,
    ...(result.title === undefined ? {} : { title: result.title }),
    ok: result.ok,
    markdown: result.markdown,
    pages: result.pages.map((p) => ({
      page_number: p.pageNumber,
      engine: p.engine,
      reason: p.reason,
      ...(p.quality === undefined ? {} : { quality: { score: p.quality.score, passed: p.quality.passed, reasons: p.quality.reasons } }),
      ...(p.failed === undefined ? {} : { failed: p.failed }),
    })),
    elements: result.elements.map(element),
    ...(options.chunks ? { chunks: result.chunks.map((chunk) => chunkToDocument(chunk, { ingestedAt })) } : {}),
    failures: result.failures.map(failure),
    took_ms: options.tookMs,
  };
}
