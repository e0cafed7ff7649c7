/**
 * Documents processed on worker threads, several at once, results in the order they finish.
 */
import type { FailureRecord, SourceDocument } from '../../core/types.ts';
import { compiledPdfium } from '../pdf/pdfium.ts';
import { chunkProcessed } from '../run/chunk-processed.ts';
import { validateProcessOptions } from '../run/options.ts';
import type { ProcessedDocument } from '../run/process-document.ts';
import { isDocument, isUnreadSource, type SourceItem, sourceFailureRecord, type UnreadSource } from '../run/sources.ts';
import { type ParallelOptions, resolveParallelOptions } from './options.ts';
import { type JobOutcome, WorkerPool } from './pool.ts';

export { isUnreadSource, type UnreadSource } from '../run/sources.ts';

function toProcessed(doc: SourceDocument, outcome: JobOutcome): ProcessedDocument {
  if (outcome.ok) return { ...outcome.result, doc };
  const failure: FailureRecord = { source: doc.uri, docId: doc.id, stage: 'open', code: outcome.code, reason: outcome.reason, at: new Date().toISOString() };
  return { doc, ok: false, pages: [], elements: [], chunks: [], markdown: '', failures: [failure] };
}

/**
 * `processDocument` on `workers` threads. Source problems come out as {@link UnreadSource}s,
 * documents as {@link ProcessedDocument}s in the order they finish; a worker that dies fails
 * only its document (`FOLIO_WORKER_CRASHED`). The source is read only as far as
 * `workers + queueSize` documents ahead of the consumer. Workers end when the iteration ends,
 * is broken off or fails.
 *
 * @example
 * for await (const item of processInParallel(sourcesFrom(['docs/']), { engine: 'auto', ocrEngine: 'paddle' })) {
 *   if (isUnreadSource(item)) console.error(item.failure.reason);
 *   else console.log(item.doc.uri, item.chunks.length);
 * }
 */
export async function* processInParallel(
  sources: AsyncIterable<SourceItem>,
  options: Readonly<ParallelOptions> = {},
): AsyncGenerator<ProcessedDocument | UnreadSource> {
  const settings = resolveParallelOptions(options);
  validateProcessOptions(settings.process);
  const { signal, onPage, onStarted, resourceLimits, ocr, countTokens } = options ?? {};
  signal?.throwIfAborted();
  // Compiled here once and shared: without it each worker compiles PDFium and warms its code up
  // again on its own pages. A failure here leaves each worker to try on its own.
  const pdfium = await compiledPdfium().catch(() => undefined);
  const pool = new WorkerPool({
    size: settings.workers,
    setup: {
      process: settings.process,
      ocrEngine: settings.ocrEngine,
      ocrEngineOptions: settings.ocrEngineOptions,
      ocrOnCaller: ocr !== undefined,
      chunk: countTokens === undefined,
      pageEvents: onPage !== undefined,
      ...(pdfium === undefined ? {} : { pdfium }),
    },
    resourceLimits,
    onPage,
    ...(ocr === undefined ? {} : { onOcr: async (pages) => (await ocr()).recognize(pages, { signal }) }),
  });
  // Every worker starts at once: each spends 0.1–0.3 s loading the pipeline, which had better
  // overlap the source's first reads (and the caller's set-up, see `onStarted`) than follow them.
  // A run of one small document pays for threads it never uses, but only in CPU: they load side
  // by side.
  pool.warm();
  onStarted?.();
  // The token counter is a function of this thread: chunk here what the workers only read, as the
  // consumer takes it, so a counter that throws rejects the iteration as it would in-thread.
  const chunked = (item: ProcessedDocument | UnreadSource): ProcessedDocument | UnreadSource =>
    countTokens === undefined || isUnreadSource(item)
      ? item
      : chunkProcessed(item, { maxTokens: settings.process.maxTokens, overlapTokens: settings.process.overlapTokens, countTokens });
  const limit = settings.workers + settings.queueSize;
  const ready: (ProcessedDocument | UnreadSource)[] = [];
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
        yield chunked(next);
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
