/**
 * The JSON the web app's API answers with: one declaration shared by the routes (server/routes)
 * and the browser code (server/web), which imports these types only (erased when served).
 */

/** A box in page units (PDF points or pixels), origin top-left: [x1, y1, x2, y2]. */
export type Box = readonly [number, number, number, number];

export interface PageBox {
  readonly page: number;
  readonly bbox: Box;
}

/** A piece of a snippet; `hit` marks a query term. */
export interface SnippetPart {
  readonly text: string;
  readonly hit?: true;
}

export interface AppInfo {
  readonly index: string;
  /** False when the server has no Elasticsearch: search and ask answer 503. */
  readonly search: boolean;
  /** kNN and hybrid need an embedder. */
  readonly knn: boolean;
  /** Ask answers with an LLM (else it shows the retrieved passages only). */
  readonly llm: boolean;
  readonly engine: string;
  /** The convert view may name `s3://bucket/key` objects: the server's environment configures S3. */
  readonly s3: boolean;
}

export interface HitView {
  readonly id: string;
  readonly docId: string;
  readonly source: string;
  readonly title?: string;
  readonly pages: readonly number[];
  readonly headingPath: readonly string[];
  readonly kind: readonly string[];
  /** The fused RRF score in hybrid mode, else the list's own score. */
  readonly score: number;
  readonly ranks: { readonly bm25?: number; readonly knn?: number };
  readonly scores: { readonly bm25?: number; readonly knn?: number };
  readonly snippet: readonly SnippetPart[];
  readonly bboxes: readonly PageBox[];
  /** `source, pp. 3–4 › Heading`, as `folio ask` cites it. */
  readonly citation: string;
}

export interface SearchResponse {
  readonly query: string;
  readonly mode: string;
  readonly hits: readonly HitView[];
}

export interface AskResponse {
  readonly query: string;
  readonly answer?: string;
  readonly context: string;
  readonly hits: readonly HitView[];
}

export interface ElementView {
  /** Position of the element in its document. */
  readonly index: number;
  readonly kind: string;
  readonly level?: number;
  readonly text: string;
  /** Clean Markdown of the element. */
  readonly markdown: string;
  readonly headingPath: readonly string[];
  /** The element's boxes on this page. */
  readonly boxes: readonly Box[];
}

export interface PageView {
  readonly pageNumber: number;
  readonly width?: number;
  readonly height?: number;
  /** The engine that wrote the page (`text`, `paddle`, …) or `none` when it failed. */
  readonly engine: string;
  readonly reason: string;
  readonly quality?: { readonly score: number; readonly passed: boolean; readonly reasons: readonly string[] };
  readonly failed?: string;
  readonly elements: readonly ElementView[];
}

export interface ChunkView {
  readonly id: string;
  readonly index: number;
  readonly pages: readonly number[];
  readonly headingPath: readonly string[];
  readonly bboxes: readonly PageBox[];
  readonly text: string;
}

export interface FailureView {
  readonly stage: string;
  readonly code: string;
  readonly reason: string;
  readonly pageNumber?: number;
}

/** An e-mail's attachment, converted as a document of its own (at any depth: `depth` 2 is inside another). */
export interface AttachmentView {
  readonly id: string;
  readonly name: string;
  readonly source: string;
  /** The id of the document it is attached to. */
  readonly parentId: string;
  readonly depth: number;
  readonly mime: string;
  readonly ok: boolean;
  /** Its clean Markdown (empty when it could not be read; `failures` says why). */
  readonly markdown: string;
  readonly failures: readonly FailureView[];
}

export interface DocumentView {
  readonly id: string;
  /** `indexed` (found in the chunk index) or `converted` (dropped on the app). */
  readonly origin: 'indexed' | 'converted';
  readonly source: string;
  readonly name: string;
  readonly title?: string;
  /** The sniffed type of the source, when it could be read: Markdown has no page images. */
  readonly mime?: string;
  /** Why pages cannot be shown (source deleted, not a local file); the chunks are still listed. */
  readonly problem?: string;
  /** Something to know, such as a source that changed since it was indexed. */
  readonly warning?: string;
  readonly status?: string;
  readonly pages: readonly PageView[];
  readonly chunks: readonly ChunkView[];
  readonly failures: readonly FailureView[];
  /** An e-mail's attachments, depth first; absent when it has none. */
  readonly attachments?: readonly AttachmentView[];
  /** Download links of a conversion (`.md` and `.json`). */
  readonly downloads?: { readonly markdown: string; readonly json: string };
}

/**
 * One line of the `GET /api/documents/{id}/events` answer (newline-delimited JSON): the outline
 * (every page sized, route `pending`, no elements yet), each page as it is read (its own
 * elements, numbered on the page, before the steps across pages revise them), then the whole view.
 */
export type DocumentEvent =
  | { readonly type: 'outline'; readonly document: DocumentView }
  | { readonly type: 'page'; readonly page: PageView }
  | { readonly type: 'done'; readonly document: DocumentView }
  | { readonly type: 'failed'; readonly reason: string };

/** One line of the `POST /api/convert` answer (newline-delimited JSON). */
export type ConvertEvent =
  | { readonly type: 'started'; readonly id: string; readonly name: string; readonly pages?: number }
  | { readonly type: 'page'; readonly pageNumber: number; readonly engine: string; readonly done: number; readonly pages?: number }
  | { readonly type: 'done'; readonly id: string; readonly document: DocumentView }
  | { readonly type: 'failed'; readonly id: string; readonly reason: string };

/** The body of every error answer (the OpenAI error shape the server uses throughout). */
export interface ErrorBody {
  readonly error: { readonly message: string; readonly type: string; readonly code: number };
}
