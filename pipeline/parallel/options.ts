/**
 * Options of {@link processInParallel}. What crosses to the workers must survive
 * `structuredClone`; functions stay on the calling thread: `ocr` recognises the pages workers
 * send it, `countTokens` chunks the documents they return, `onPage` hears their page events.
 */
import { availableParallelism } from 'node:os';
import { ConfigurationError } from '../../core/errors.ts';
import type { EngineOptions } from '../../inference/create-engine.ts';
import type { ProcessOptions } from '../run/options.ts';

/** The part of {@link ProcessOptions} a worker receives: data only. */
export type WorkerProcessOptions = Pick<
  ProcessOptions,
  | 'engine'
  | 'password'
  | 'maxTokens'
  | 'overlapTokens'
  | 'ocrBatchSize'
  | 'dpi'
  | 'maxPixels'
  | 'imageRegions'
  | 'formulaRegions'
  | 'formulaDevice'
  | 'revisions'
>;

export interface ParallelOptions extends WorkerProcessOptions {
  /**
   * Worker threads, each processing one document at a time.
   * @default Math.min(2, os.availableParallelism())
   */
  readonly workers?: number;
  /**
   * Documents read ahead of the workers (waiting for a free worker); the source is not pulled
   * further while this many wait, so memory stays bounded to `workers + queueSize` documents.
   * @default workers
   */
  readonly queueSize?: number;
  /**
   * The OCR engine of the calling thread, as in `processDocument`: workers send it the pages that
   * need OCR, so one engine (one model in memory, one GPU session) serves every worker.
   * @default undefined
   */
  readonly ocr?: ProcessOptions['ocr'];
  /**
   * An OCR engine each worker creates for itself on its first page that needs OCR
   * (`createEngine(name, options)`), for CPU engines on machines with cores to spare. Without
   * this or `ocr`, such pages are recorded as failed, as in `processDocument`.
   * @default undefined
   */
  readonly ocrEngine?: string;
  /**
   * Options of that engine (must be serialisable).
   * @default {}
   */
  readonly ocrEngineOptions?: Readonly<EngineOptions>;
  /**
   * V8 heap limits per worker: a document that blows them crashes only its worker, and is
   * recorded as failed (`FOLIO_WORKER_CRASHED`); a fresh worker takes the next document.
   * @default { maxYoungGenerationSizeMb: 48 } (`WORKER_YOUNG_GENERATION_MB`; Node's defaults otherwise)
   */
  readonly resourceLimits?: Readonly<{ maxOldGenerationSizeMb?: number; maxYoungGenerationSizeMb?: number }>;
  /** Stops handing out documents; documents in flight are abandoned and their workers ended. */
  readonly signal?: AbortSignal;
  /**
   * Token counter for chunking (e.g. the embedding model's tokenizer). When given, workers leave
   * chunking to the calling thread, where this function lives.
   * @default the approximation of `pipeline/chunk`, in the workers
   */
  readonly countTokens?: ProcessOptions['countTokens'];
  /** Called on the calling thread after each page of any document, for progress bars. */
  readonly onPage?: ProcessOptions['onPage'];
  /**
   * Called once the worker threads have been spawned, before the first document is pulled from
   * the source: set-up of the caller's own that costs this thread CPU (loading the Elasticsearch
   * client) then no longer delays the workers' start.
   * @default undefined
   */
  readonly onStarted?: () => void;
}

export interface ResolvedParallelOptions {
  readonly workers: number;
  readonly queueSize: number;
  readonly process: WorkerProcessOptions;
  readonly ocrEngine: string | undefined;
  readonly ocrEngineOptions: Readonly<EngineOptions>;
}

const PROCESS_KEYS = [
  'engine',
  'password',
  'maxTokens',
  'overlapTokens',
  'ocrBatchSize',
  'dpi',
  'maxPixels',
  'imageRegions',
  'formulaRegions',
  'formulaDevice',
  'revisions',
] as const;

function positiveInteger(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`${name}\` to be an integer from 1 and up, got \`${String(value)}\` (${typeof value})`);
  }
  return value;
}

/** Validate and fill in defaults; rejects what cannot cross to a worker. */
export function resolveParallelOptions(options: Readonly<ParallelOptions>): ResolvedParallelOptions {
  const settings = options ?? {};
  const workers = positiveInteger('workers', settings.workers ?? Math.min(2, availableParallelism()));
  const queueSize = positiveInteger('queueSize', settings.queueSize ?? workers);
  const { ocrEngine, ocrEngineOptions = {} } = settings;
  if (ocrEngine !== undefined && (typeof ocrEngine !== 'string' || ocrEngine === '')) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`ocrEngine\` to be an engine name, got \`${String(ocrEngine)}\` (${typeof ocrEngine})`);
  }
  if (settings.ocr !== undefined && ocrEngine !== undefined) {
    throw new ConfigurationError(
      'FOLIO_BAD_OPTION',
      `Expected one of \`ocr\` (the calling thread's engine) and \`ocrEngine\` (one per worker), got both (\`ocrEngine\` = \`${ocrEngine}\`)`,
    );
  }
  for (const name of ['ocr', 'countTokens', 'onPage', 'onStarted'] as const) {
    if (settings[name] !== undefined && typeof settings[name] !== 'function') {
      throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`${name}\` to be a function, got \`${String(settings[name])}\` (${typeof settings[name]})`);
    }
  }
  const process: Record<string, unknown> = {};
  for (const key of PROCESS_KEYS) if (settings[key] !== undefined) process[key] = settings[key];
  try {
    structuredClone([process, ocrEngineOptions]);
  } catch (error) {
    throw new ConfigurationError(
      'FOLIO_BAD_OPTION',
      `Expected serialisable options (they are sent to worker threads): ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return { workers, queueSize, process: process as WorkerProcessOptions, ocrEngine, ocrEngineOptions };
}
