/**
 * A fixed set of worker threads running `worker.ts`, one document per worker at a time. A worker
 * that dies (uncaught exception, out of memory, `process.exit`) fails only the document it held;
 * the next document gets a fresh worker.
 */
import module from 'node:module';
import { Worker } from 'node:worker_threads';
import { ConfigurationError, describeError, errorCode } from '../../core/errors.ts';
import { siblingModule } from '../../core/module-url.ts';
import type { SourceDocument } from '../../core/types.ts';
import type { OcrPageResult, PageImage } from '../../inference/engine.ts';
import type { PoolMessage, ProcessRequest, WorkerMessage, WorkerResult, WorkerSetup } from './protocol.ts';

export interface WorkerPoolOptions {
  readonly size: number;
  readonly setup: WorkerSetup;
  readonly resourceLimits?: Readonly<{ maxOldGenerationSizeMb?: number; maxYoungGenerationSizeMb?: number }>;
  readonly onPage?: (event: { readonly source: string; readonly pageNumber: number; readonly engine: string }) => void;
  /**
   * Recognises the pages a worker sends when `setup.ocrOnCaller` is set (the calling thread's OCR
   * engine). A rejection is sent back and recorded by the worker as those pages' failure.
   */
  readonly onOcr?: (pages: readonly PageImage[]) => Promise<readonly OcrPageResult[]>;
  /**
   * End a worker after this long without a document, in ms, and start a fresh one for the next:
   * a thread's heap and its PDFium memory (wasm memory never shrinks) go back to the system only
   * when the thread ends, so a long-running caller (`folio serve`) returns to its start-up size
   * once quiet. `0` keeps workers until {@link WorkerPool.close}.
   * @default 0
   */
  readonly idleMs?: number;
  /**
   * Called once the last running worker has been ended for being idle (every slot empty): the
   * moment for the caller to give back its own idle memory.
   * @default undefined
   */
  readonly onIdle?: () => void;
  /**
   * The worker entry; tests point it at a stand-in.
   * @default siblingModule('./worker', import.meta.url): `worker.ts` from source, `worker.js` from `dist/`
   */
  readonly entry?: URL;
}

/**
 * The young generation of a worker's heap when the caller sets none: 48 MB is V8's 16 MB
 * semi-space (Node's default before it scaled with the machine's memory). Left to grow, V8 took
 * 128 MB of young generation on a long document and kept it, all of it garbage: a 1,734-page
 * PDF peaked at 309 MB RSS reading its pages against 210 MB capped, at the same speed.
 */
export const WORKER_YOUNG_GENERATION_MB = 48;

/** How one job ended: the worker's result, or why there is none. */
export type JobOutcome = { readonly ok: true; readonly result: WorkerResult } | { readonly ok: false; readonly code: string; readonly reason: string };

interface Job {
  readonly id: number;
  readonly doc: SourceDocument;
  readonly process: ProcessRequest['process'];
  readonly settle: (outcome: JobOutcome) => void;
}

interface Slot {
  worker: Worker | undefined;
  job: Job | undefined;
  idle: NodeJS.Timeout | undefined;
}

export class WorkerPool {
  readonly #options: WorkerPoolOptions;
  readonly #slots: Slot[];
  readonly #waiting: Job[] = [];
  #nextId = 1;
  #closed = false;
  #recycled = 0;

  constructor(options: Readonly<WorkerPoolOptions>) {
    this.#options = options;
    // Workers start on first use: a run of one document starts one thread.
    this.#slots = Array.from({ length: options.size }, () => ({ worker: undefined, job: undefined, idle: undefined }));
    const { idleMs = 0 } = options;
    if (!Number.isInteger(idleMs) || idleMs < 0) {
      throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`idleMs\` to be an integer from 0 up, got \`${String(idleMs)}\` (${typeof idleMs})`);
    }
  }

  /** Workers ended for being idle ({@link WorkerPoolOptions.idleMs}). */
  get recycled(): number {
    return this.#recycled;
  }

  /** Documents submitted and not yet settled (running or waiting for a worker). */
  get pending(): number {
    return this.#waiting.length + this.#slots.filter((s) => s.job !== undefined).length;
  }

  /** Workers started and alive (idle or busy). */
  get started(): number {
    return this.#slots.filter((s) => s.worker !== undefined).length;
  }

  /**
   * Start `count` workers now instead of on first use, so they load their modules (a few hundred
   * milliseconds each) while the caller is still connecting to its sink or reading the first file.
   */
  warm(count: number = this.#slots.length): void {
    for (const slot of this.#slots.slice(0, count)) {
      if (this.#closed || slot.worker !== undefined) continue;
      slot.worker = this.#spawn(slot);
      // An idle worker must not keep the process alive.
      slot.worker.unref();
    }
  }

  /**
   * Process `doc` on the next free worker; never rejects (a crash is an outcome). `process`
   * overrides the pool's processing options for this document alone (e.g. its `engine`).
   */
  run(doc: SourceDocument, process?: ProcessRequest['process']): Promise<JobOutcome> {
    if (this.#closed) return Promise.resolve({ ok: false, code: 'FOLIO_ABORTED', reason: `${doc.uri}: the worker pool is closed` });
    return new Promise((settle) => {
      this.#waiting.push({ id: this.#nextId++, doc, process, settle });
      this.#dispatch();
    });
  }

  /** End every worker; jobs still waiting or running settle as aborted. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#waiting.splice(0)) job.settle({ ok: false, code: 'FOLIO_ABORTED', reason: `${job.doc.uri}: stopped before processing` });
    await Promise.all(
      this.#slots.map(async (slot) => {
        const { worker, job } = slot;
        clearTimeout(slot.idle);
        slot.worker = undefined;
        slot.job = undefined;
        job?.settle({ ok: false, code: 'FOLIO_ABORTED', reason: `${job.doc.uri}: stopped while processing` });
        if (worker !== undefined) await worker.terminate();
      }),
    );
  }

  #dispatch(): void {
    for (const slot of this.#slots) {
      if (this.#closed || this.#waiting.length === 0) return;
      if (slot.job !== undefined) continue;
      const job = this.#waiting.shift() as Job;
      clearTimeout(slot.idle);
      slot.job = job;
      slot.worker ??= this.#spawn(slot);
      const request: ProcessRequest = { type: 'process', id: job.id, doc: job.doc, ...(job.process === undefined ? {} : { process: job.process }) };
      slot.worker.postMessage(request);
      slot.worker.ref();
    }
  }

  #spawn(slot: Slot): Worker {
    const { setup, resourceLimits = {}, entry = siblingModule('./worker', import.meta.url) } = this.#options;
    // Workers do not inherit `module.enableCompileCache()` from this thread; the variable makes them
    // use the same cache, which saves each one about a third of its module loading.
    // (Through the default export: a named import would stop an older Node at link time, before
    // the package's version check could name the versions.)
    const cache = module.getCompileCacheDir?.();
    const worker = new Worker(entry, {
      workerData: setup,
      ...(cache === undefined ? {} : { env: { ...process.env, NODE_COMPILE_CACHE: cache } }),
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB, ...resourceLimits },
    });
    const finish = (outcome: JobOutcome): void => {
      const job = slot.job;
      slot.job = undefined;
      // An idle worker must not keep the process alive if the caller forgets to close the pool.
      slot.worker?.unref();
      job?.settle(outcome);
      this.#dispatch();
      if (slot.job === undefined) this.#idle(slot);
    };
    worker.on('message', (message: WorkerMessage) => {
      if (slot.worker !== worker || slot.job?.id !== message.id) return;
      if (message.type === 'page') this.#options.onPage?.(message.event);
      else if (message.type === 'ocr') this.#recognize(worker, slot, message.id, message.request, message.pages);
      else if (message.type === 'done') finish({ ok: true, result: message.result });
      else finish({ ok: false, code: message.code, reason: message.reason });
    });
    let crash: string | undefined;
    worker.on('error', (error) => (crash = error instanceof Error ? error.message : String(error)));
    worker.on('exit', (exitCode) => {
      // Terminated by close(), or replaced already: nothing to settle.
      if (slot.worker !== worker) return;
      slot.worker = undefined;
      const job = slot.job;
      if (job === undefined) return;
      finish({ ok: false, code: 'FOLIO_WORKER_CRASHED', reason: `${job.doc.uri}: the worker processing it died (${crash ?? `exit code ${exitCode}`})` });
    });
    return worker;
  }

  /** End `slot`'s worker once it has been idle for `idleMs`; the next document starts a fresh one. */
  #idle(slot: Slot): void {
    const { idleMs = 0 } = this.#options;
    if (idleMs === 0 || this.#closed) return;
    clearTimeout(slot.idle);
    slot.idle = setTimeout(() => {
      const worker = slot.worker;
      if (worker === undefined || slot.job !== undefined || this.#closed) return;
      // Cleared first: the exit that follows is not a crash.
      slot.worker = undefined;
      this.#recycled++;
      void worker.terminate().then(() => {
        if (!this.#closed && this.#slots.every((s) => s.worker === undefined)) this.#options.onIdle?.();
      });
    }, idleMs);
    // An idle timer must not keep a closing process alive.
    slot.idle.unref();
  }

  /** Answer a worker's OCR request, unless the worker was replaced or moved on meanwhile. */
  #recognize(worker: Worker, slot: Slot, job: number, request: number, pages: readonly PageImage[]): void {
    const { onOcr } = this.#options;
    const answer = (message: PoolMessage): void => {
      if (slot.worker === worker && slot.job?.id === job) worker.postMessage(message);
    };
    if (onOcr === undefined) {
      answer({ type: 'ocr-failed', request, code: 'FOLIO_NO_OCR_ENGINE', reason: 'the worker pool has no OCR engine' });
      return;
    }
    onOcr(pages).then(
      (results) => answer({ type: 'ocr-done', request, results }),
      (error: unknown) => answer({ type: 'ocr-failed', request, code: errorCode(error), reason: describeError(error) }),
    );
  }
}
