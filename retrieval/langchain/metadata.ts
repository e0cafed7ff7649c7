/**
 * LangChain `Document`s from Folio records. Keys follow LangChain's own loaders (`source`,
 * `loc.pageNumber`, `loc.lines`) so splitters and vector stores treat them like any PDF page;
 * everything Folio adds sits under one `folio` key.
 */
import { Document } from '@langchain/core/documents';
import type { BBox, Chunk, ElementLocation } from '../../core/types.ts';
import type { SearchHit } from '../types.ts';

/** What Folio adds to a Document's metadata. */
export interface FolioMetadata {
  readonly docId: string;
  /** Chunk id (chunk mode and retriever) or `docId#p<page>` (page mode). */
  readonly id: string;
  readonly chunkIndex?: number;
  readonly title?: string;
  readonly pages: readonly number[];
  readonly headingPath: readonly string[];
  /** Element kinds inside (`heading`, `table`, …). */
  readonly kind: readonly string[];
  readonly bboxes: readonly { readonly page: number; readonly bbox: BBox }[];
  readonly quality?: number;
  readonly qualityPassed?: boolean;
  readonly engine?: string;
  readonly tokens?: number;
  /** Sheets and cell ranges, or slides (spreadsheets and presentations); the first is also in `loc`. */
  readonly locations?: readonly ElementLocation[];
  /** The document this one is an attachment of. */
  readonly parentId?: string;
  /** Retriever only: fused score and per-list ranks. */
  readonly score?: number;
  readonly ranks?: SearchHit['ranks'];
}

export interface FolioDocumentMetadata {
  readonly source: string;
  readonly loc: {
    readonly pageNumber: number;
    readonly lines?: { readonly from: number; readonly to: number };
    /** A spreadsheet's sheet and cells (`Sheet1!A1:D40`), or a presentation's slide. */
    readonly sheet?: string;
    readonly range?: string;
    readonly slide?: number;
  };
  readonly folio: FolioMetadata;
  [key: string]: unknown;
}

/** One Document per chunk. */
export function chunkToDocument(chunk: Chunk): Document<FolioDocumentMetadata> {
  return new Document<FolioDocumentMetadata>({
    pageContent: chunk.text,
    id: chunk.id,
    metadata: {
      source: chunk.source,
      loc: {
        pageNumber: chunk.pages[0] ?? 1,
        ...(chunk.lines ? { lines: { from: chunk.lines.from, to: chunk.lines.to } } : {}),
        ...chunk.locations?.[0],
      },
      folio: {
        docId: chunk.docId,
        ...(chunk.parentId === undefined ? {} : { parentId: chunk.parentId }),
        ...(chunk.locations === undefined ? {} : { locations: chunk.locations }),
        id: chunk.id,
        chunkIndex: chunk.index,
        ...(chunk.title !== undefined ? { title: chunk.title } : {}),
        pages: chunk.pages,
        headingPath: chunk.headingPath,
        kind: chunk.kinds,
        bboxes: chunk.bboxes,
        ...(chunk.quality ? { quality: chunk.quality.score, qualityPassed: chunk.quality.passed } : {}),
        engine: chunk.engine,
        tokens: chunk.tokens,
      },
    },
  });
}

/**
 * One Document per page from the chunks of one document, in order: each chunk goes to the page it
 * starts on (a chunk spanning pages 3–4 belongs to page 3, as its first line does).
 */
export function chunksToPageDocuments(chunks: readonly Chunk[]): Document<FolioDocumentMetadata>[] {
  const byPage = new Map<number, Chunk[]>();
  for (const chunk of chunks) {
    const page = chunk.pages[0] ?? 1;
    const list = byPage.get(page) ?? [];
    list.push(chunk);
    byPage.set(page, list);
  }
  return [...byPage.entries()]
    .sort(([a], [b]) => a - b)
    .map(([page, list]) => {
      const first = list[0]!;
      const lines = list.flatMap((c) => (c.lines ? [c.lines] : []));
      const qualities = list.flatMap((c) => (c.quality ? [c.quality] : []));
      return new Document<FolioDocumentMetadata>({
        pageContent: list.map((c) => c.text).join('\n\n'),
        id: `${first.docId}#p${page}`,
        metadata: {
          source: first.source,
          loc: {
            pageNumber: page,
            ...(lines.length > 0 ? { lines: { from: Math.min(...lines.map((l) => l.from)), to: Math.max(...lines.map((l) => l.to)) } } : {}),
          },
          folio: {
            docId: first.docId,
            id: `${first.docId}#p${page}`,
            ...(first.title !== undefined ? { title: first.title } : {}),
            pages: [page],
            headingPath: first.headingPath,
            kind: [...new Set(list.flatMap((c) => c.kinds))],
            bboxes: list.flatMap((c) => c.bboxes.filter((b) => b.page === page)),
            ...(qualities.length > 0 ? { quality: Math.min(...qualities.map((q) => q.score)), qualityPassed: qualities.every((q) => q.passed) } : {}),
            engine: first.engine,
            tokens: list.reduce((sum, c) => sum + c.tokens, 0),
          },
        },
      });
    });
}

/** One Document per search hit (the retriever's output). */
export function hitToDocument(hit: SearchHit): Document<FolioDocumentMetadata> {
  return new Document<FolioDocumentMetadata>({
    pageContent: hit.text,
    id: hit.id,
    metadata: {
      source: hit.source,
      loc: { pageNumber: hit.pages[0] ?? 1, ...(hit.lines ? { lines: hit.lines } : {}) },
      folio: {
        docId: hit.docId,
        id: hit.id,
        ...(hit.chunkIndex !== undefined ? { chunkIndex: hit.chunkIndex } : {}),
        ...(hit.title !== undefined ? { title: hit.title } : {}),
        pages: hit.pages,
        headingPath: hit.headingPath,
        kind: hit.kind,
        bboxes: hit.bboxes,
        ...(hit.quality !== undefined ? { quality: hit.quality } : {}),
        score: hit.score,
        ranks: hit.ranks,
      },
    },
  });
}
