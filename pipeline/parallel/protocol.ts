/** Messages between {@link WorkerPool} and `worker.ts`; everything here is structured-cloned. */
import type { SourceDocument } from '../../core/types.ts';
import type { EngineOptions } from '../../inference/create-engine.ts';
import type { ProcessedDocument } from '../run/process-document.ts';
import type { WorkerProcessOptions } from './options.ts';

/** What every worker is started with (`workerData`). */
export interface WorkerSetup {
  readonly process: WorkerProcessOptions;
  readonly ocrEngine: string | undefined;
  readonly ocrEngineOptions: Readonly<EngineOptions>;
  /** Forward page events (only when the caller listens: they cost a message each). */
  readonly pageEvents: boolean;
}

export interface ProcessRequest {
  readonly type: 'process';
  readonly id: number;
  readonly doc: SourceDocument;
}

/** A processed document without its `doc`: the caller still holds it, the bytes need not travel back. */
export type WorkerResult = Omit<ProcessedDocument, 'doc'>;

export type WorkerMessage =
  | { readonly type: 'page'; readonly id: number; readonly event: { readonly source: string; readonly pageNumber: number; readonly engine: string } }
  | { readonly type: 'done'; readonly id: number; readonly result: WorkerResult }
  | { readonly type: 'failed'; readonly id: number; readonly code: string; readonly reason: string };
