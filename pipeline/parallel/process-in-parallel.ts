/**
 * Documents processed on worker threads, several at once, results in the order they finish.
 */
import type { FailureRecord, SourceDocument } from '../../core/types.ts';
import type { ProcessedDocument } from '../run/process-document.ts';
import { validateProcessOptions } from '../run/options.ts';
import { isDocument, sourceFailureRecord, type SourceItem, type SourceProblem } from '../run/sources.ts';
import { resolveParallelOptions, type ParallelOptions } from './options.ts';
import { WorkerPool, type JobOutcome } from './pool.ts';

/** An input that never became a document (missing path, unreachable URL), passed through. */
export interface SourceFailure {
  readonly problem: SourceProblem;
  readonly failure: FailureRecord;
}

/** Tells a {@link SourceFailure} from a {@link ProcessedDocument}. */
export function isSourceFailure(item: ProcessedDocument | SourceFailure): item is SourceFailure {
  return 'problem' in item;
}

function toProcessed(doc: SourceDocument, outcome: JobOutcome): ProcessedDocument {
  if (outcome.ok) return { ...outcome.result, doc };
  const failure: FailureRecord = { source: doc.uri, docId: doc.id, stage: 'open', code: outcome.code, reason: outcome.reason, at: new Date().toISOString() };
  return { doc, ok: false, pages: [], elements: [], chunks: [], markdown: '', failures: [failure] };
}

/**
 * `processDocument` on `workers` threads. Source problems come out as {@link SourceFailure}s,
 * documents as {@link ProcessedDocument}s in the order they finish; a worker that dies fails
 * only its document (`FOLIO_WORKER_CRASHED`). The source is read only as far as
 * `workers + queueSize` documents ahead of the consumer. Workers end when the iteration ends,
 * is broken off or fails.
 *
 * @example
 * for await (const item of processInParallel(sourcesFrom(['docs/']), { engine: 'auto', ocrEngine: 'paddle' })) {
 *   if (isSourceFailure(item)) console.error(item.failure.reason);
 *   else console.log(item.doc.uri, item.chunks.length);
 * }
 */
export async function* processInParallel(sources: AsyncIterable<SourceItem>, options: Readonly<ParallelOptions> = {}): AsyncGenerator<ProcessedDocument | SourceFailure> {
  const settings = resolveParallelOptions(options);
  validateProcessOptions(settings.process);
  const { signal, onPage, resourceLimits } = options ?? {};
  signal?.throwIfAborted();
  const pool = new WorkerPool({
    size: settings.workers,
    setup: { process: settings.process, ocrEngine: settings.ocrEngine, ocrEngineOptions: settings.ocrEngineOptions, pageEvents: onPage !== undefined },
    resourceLimits,
    onPage,
  });
  const limit = settings.workers + settings.queueSize;
  const ready: (ProcessedDocument | SourceFailure)[] = [];
  let inFlight = 0;
  let reading = true;
  let stopped = false;
  let sourceError: { error: unknown } | undefined;
  // One waiter each side: the reader waits for room, the consumer waits for a result.
  let wakeReader: (() => void) | undefined;
  let wakeConsumer: (() => void) | undefined;
  const nudge = (): void => {
    wakeReader?.();
    wakeConsumer?.();
  };
  const onAbort = (): void => {
    stopped = true;
    nudge();
  };
  signal?.addEventListener('abort', onAbort, { once: true });

  const reader = (async (): Promise<void> => {
    try {
      for await (const item of sources) {
        if (stopped) break;
        if (!isDocument(item)) {
          ready.push({ problem: item, failure: sourceFailureRecord(item) });
          nudge();
          continue;
        }
        inFlight++;
        void pool.run(item).then((outcome) => {
          inFlight--;
          if (!stopped) ready.push(toProcessed(item, outcome));
          nudge();
        });
        // Backpressure: documents running, waiting and finished-but-unread all hold memory.
        while (!stopped && inFlight + ready.length >= limit) await new Promise<void>((resolve) => (wakeReader = resolve));
        wakeReader = undefined;
      }
    } catch (error) {
      sourceError = { error };
    } finally {
      reading = false;
      nudge();
    }
  })();

  try {
    while (true) {
      if (stopped) signal?.throwIfAborted();
      if (sourceError !== undefined) throw sourceError.error;
      const next = ready.shift();
      if (next !== undefined) {
        wakeReader?.();
        yield next;
        continue;
      }
      if (!reading && inFlight === 0) break;
      await new Promise<void>((resolve) => (wakeConsumer = resolve));
      wakeConsumer = undefined;
    }
  } finally {
    stopped = true;
    signal?.removeEventListener('abort', onAbort);
    nudge();
    await pool.close();
    await reader;
  }
}
