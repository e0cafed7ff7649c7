/**
 * The encoder on a worker thread of its own. onnxruntime-node's `run` holds the calling thread for
 * a whole pass (measured: the event loop stood still for ~300 ms per pass of 512 tokens), so an
 * encoder on ingest's main thread stops it from chunking the next document, handing pages to the
 * page workers and writing to the sink while it embeds. Token ids cross, not texts: the caller's
 * tokenizer already encoded each chunk when the chunker counted it.
 */
import { Worker } from 'node:worker_threads';
import type { FolioErrorCode } from '../../core/error-codes.ts';
import { ConfigurationError, InferenceError } from '../../core/errors.ts';
import { siblingModule } from '../../core/module-url.ts';
import type { EmbedBatchInfo, EncoderSettings } from './encoder.ts';

/** Messages to the worker. */
export type ToEncoder = { readonly type: 'run'; readonly id: number; readonly encoded: readonly (readonly number[])[] } | { readonly type: 'close' };

/** Messages from the worker; `id` -1 is a failure to open the model. */
export type FromEncoder =
  | { readonly type: 'ready' }
  | { readonly type: 'closed' }
  | { readonly type: 'batch'; readonly info: EmbedBatchInfo }
  | { readonly type: 'vectors'; readonly id: number; readonly vectors: Float32Array[] }
  | { readonly type: 'failed'; readonly id: number; readonly message: string; readonly code: FolioErrorCode; readonly configuration: boolean };

export interface ThreadedEncoder {
  run(encoded: readonly (readonly number[])[], signal?: AbortSignal): Promise<Float32Array[]>;
  release(): Promise<void>;
}

interface Pending {
  resolve(vectors: Float32Array[]): void;
  reject(error: Error): void;
}

/** Starts the worker and resolves once its model is loaded (or rejects with the loading error). */
export function startThreadedEncoder(settings: Readonly<EncoderSettings>, onBatch?: (info: EmbedBatchInfo) => void): Promise<ThreadedEncoder> {
  const worker = new Worker(siblingModule('./encoder-worker', import.meta.url), {
    workerData: { settings: { ...settings }, reportBatches: onBatch !== undefined },
  });
  const pending = new Map<number, Pending>();
  let nextId = 0;
  let closed: (() => void) | undefined;
  // Only calls in flight keep the process alive: an embedder nobody closed must not hang it.
  const refresh = () => (pending.size > 0 ? worker.ref() : worker.unref());
  const toError = (m: Extract<FromEncoder, { type: 'failed' }>) =>
    m.configuration ? new ConfigurationError(m.code, m.message) : new InferenceError(m.code === 'FOLIO_UNKNOWN' ? 'FOLIO_MODEL_RUN' : m.code, m.message);

  return new Promise((resolveStart, rejectStart) => {
    const failAll = (error: Error) => {
      rejectStart(error);
      for (const call of pending.values()) call.reject(error);
      pending.clear();
      closed?.();
    };
    worker.on('error', (error) => failAll(new InferenceError('FOLIO_MODEL_RUN', `embedding worker failed: ${error.message}`, { cause: error })));
    worker.on('exit', () => failAll(new InferenceError('FOLIO_EMBED_CLOSED', 'embedding worker exited')));
    worker.on('message', (message: FromEncoder) => {
      switch (message.type) {
        case 'ready':
          refresh();
          resolveStart({
            run(encoded, signal) {
              signal?.throwIfAborted();
              const id = nextId++;
              const result = new Promise<Float32Array[]>((resolve, reject) => pending.set(id, { resolve, reject }));
              refresh();
              worker.postMessage({ type: 'run', id, encoded } satisfies ToEncoder);
              return result;
            },
            release() {
              const done = new Promise<void>((resolve) => (closed = resolve));
              worker.postMessage({ type: 'close' } satisfies ToEncoder);
              worker.ref();
              return done.then(() => worker.terminate()).then(() => undefined);
            },
          });
          return;
        case 'closed':
          closed?.();
          return;
        case 'batch':
          onBatch?.(message.info);
          return;
        case 'vectors':
        case 'failed': {
          if (message.id === -1 && message.type === 'failed') {
            rejectStart(toError(message));
            void worker.terminate();
            return;
          }
          const call = pending.get(message.id);
          pending.delete(message.id);
          refresh();
          if (message.type === 'vectors') call?.resolve(message.vectors);
          else call?.reject(toError(message));
        }
      }
    });
  });
}
