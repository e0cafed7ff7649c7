/** Messages between {@link WorkerPool} and `worker.ts`; everything here is structured-cloned. */
import type { SourceDocument } from '../../core/types.ts';
import type { EngineOptions } from '../../inference/create-engine.ts';
import type { OcrPageResult, PageImage } from '../../inference/engine.ts';
import type { PdfiumModule } from '../pdf/pdfium.ts';
import type { ProcessedDocument } from '../run/process-document.ts';
import type { WorkerProcessOptions } from './options.ts';

/** What every worker is started with (`workerData`). */
export interface WorkerSetup {
  readonly process: WorkerProcessOptions;
  /** An engine each worker creates for itself, by name. */
  readonly ocrEngine: string | undefined;
  readonly ocrEngineOptions: Readonly<EngineOptions>;
  /** Pages that need OCR are sent to the calling thread's engine (`ocr` message) instead. */
  readonly ocrOnCaller?: boolean;
  /** False: leave `chunks` empty, the calling thread chunks with its own token counter. @default true */
  readonly chunk?: boolean;
  /** Forward page events (only when the caller listens: they cost a message each). */
  readonly pageEvents: boolean;
  /**
   * PDFium compiled by the calling thread: posted, not copied, so every worker runs (and warms up)
   * the same compiled code. Each worker compiles its own when absent.
   */
  readonly pdfium?: PdfiumModule;
}

/** Pool → worker. */
export type PoolMessage =
  | ProcessRequest
  | { readonly type: 'ocr-done'; readonly request: number; readonly results: readonly OcrPageResult[] }
  | { readonly type: 'ocr-failed'; readonly request: number; readonly code: string; readonly reason: string };

export interface ProcessRequest {
  readonly type: 'process';
  readonly id: number;
  readonly doc: SourceDocument;
  /** Options for this document over the pool's (`WorkerSetup.process`). */
  readonly process?: Readonly<Partial<WorkerProcessOptions>>;
}

/** A processed document without its `doc`: the caller still holds it, the bytes need not travel back. */
export type WorkerResult = Omit<ProcessedDocument, 'doc'>;

/** Worker → pool; `id` names the job (document) the message belongs to. */
export type WorkerMessage =
  | { readonly type: 'page'; readonly id: number; readonly event: { readonly source: string; readonly pageNumber: number; readonly engine: string } }
  | { readonly type: 'ocr'; readonly id: number; readonly request: number; readonly pages: readonly PageImage[] }
  | { readonly type: 'done'; readonly id: number; readonly result: WorkerResult }
  | { readonly type: 'failed'; readonly id: number; readonly code: string; readonly reason: string };
