/**
 * The documents of a run, read and chunked: one after another on this thread, or several at once
 * on worker threads while this thread writes what is done. Heavy modules load on first use, so
 * the thread that only hands documents to workers never loads pdf.js or the Markdown parser.
 */
import { ConfigurationError } from '../../core/errors.ts';
import { defaultOcr } from './default-ocr.ts';
import type { ProcessOptions } from './options.ts';
import type { ProcessedDocument } from './process-document.ts';
import { readAhead } from './read-ahead.ts';
import { isDocument, type SourceItem, sourceFailureRecord, type UnreadSource } from './sources.ts';

export interface ProcessSourcesOptions extends ProcessOptions {
  /**
   * Worker threads reading documents, each one document at a time; `0` reads them on this
   * thread. Results then come in the order documents finish, not the order of the inputs.
   * @default 0
   */
  readonly workers?: number;
  /**
   * Called once the run is under way (worker threads spawned; without workers, at once), before
   * the first source item is pulled (see `ParallelOptions.onStarted`).
   * @default undefined
   */
  readonly onStarted?: () => void;
}

/** Check `workers` the way every other option is checked: name, value and type. */
export function validateWorkers(workers: unknown): number {
  if (typeof workers !== 'number' || !Number.isInteger(workers) || workers < 0) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`workers\` to be an integer from 0 and up, got \`${String(workers)}\` (${typeof workers})`);
  }
  return workers;
}

/**
 * Every item of `sources` comes out once: a processed document, or the source's failure.
 *
 * @example
 * for await (const item of processSources(sourcesFrom(['docs/']), { engine: 'text', workers: 2 })) {
 *   if (isUnreadSource(item)) console.error(item.failure.reason);
 *   else console.log(item.doc.uri, item.chunks.length);
 * }
 */
export async function* processSources(
  sources: AsyncIterable<SourceItem>,
  options: Readonly<ProcessSourcesOptions> = {},
): AsyncGenerator<ProcessedDocument | UnreadSource> {
  const { workers = 0 } = options;
  validateWorkers(workers);
  // The CLI's default when the caller gave no engine: the embedded OCR under `auto`.
  const owned = defaultOcr(options.ocr, options.engine);
  try {
    yield* processAll(sources, { ...options, ocr: owned.ocr }, workers);
  } finally {
    await owned.close();
  }
}

async function* processAll(
  sources: AsyncIterable<SourceItem>,
  options: Readonly<ProcessSourcesOptions>,
  workers: number,
): AsyncGenerator<ProcessedDocument | UnreadSource> {
  const { signal, onStarted } = options;
  if (workers > 0) {
    const { processInParallel } = await import('../parallel/process-in-parallel.ts');
    const {
      engine,
      password,
      maxTokens,
      overlapTokens,
      ocrBatchSize,
      dpi,
      maxPixels,
      imageRegions,
      formulaRegions,
      formulaDevice,
      revisions,
      ocr,
      countTokens,
      onPage,
    } = options;
    yield* processInParallel(sources, {
      workers,
      engine,
      password,
      maxTokens,
      overlapTokens,
      ocrBatchSize,
      dpi,
      maxPixels,
      imageRegions,
      formulaRegions,
      formulaDevice,
      revisions,
      ocr,
      countTokens,
      signal,
      onPage,
      onStarted,
    });
    return;
  }
  const { processDocument } = await import('./process-document.ts');
  onStarted?.();
  // One document ahead: the next file is read (and checked against the sink) while this one is processed.
  for await (const item of readAhead(sources, 1)) {
    signal?.throwIfAborted();
    yield isDocument(item) ? await processDocument(item, options) : { problem: item, failure: sourceFailureRecord(item) };
  }
}
