/**
 * Where the recogniser runs: parallel lanes, each a single-threaded session, one in this thread
 * and the others in worker threads. Recognition is many independent runs (one per batch of
 * lines), and on the CPU one thread per run wastes least: a two-thread session spends about a
 * tenth of its CPU time handing each of the model's few hundred small operators between its
 * threads, and gains nothing on a busy machine. Two one-thread lanes keep both cores busy at
 * one-thread cost (measured on 24 lines: same CPU seconds as one thread, 10–20% less wall time
 * than one session with two threads).
 */
import { Worker } from 'node:worker_threads';
import { InferenceError } from '../../core/errors.ts';
import { siblingModule } from '../../core/module-url.ts';
import { OnnxSession, tensor } from '../runtime/ort.ts';

/** A model output: probabilities and their dimensions. */
export interface LaneOutput {
  readonly probs: Float32Array;
  readonly dims: readonly number[];
}

/**
 * Runs the recogniser on one input (`[n, 3, 48, w]`), in whichever lane is free. The input may
 * be moved to a worker: do not read it after the call.
 */
export type RecRun = (data: Float32Array, dims: readonly number[]) => Promise<LaneOutput>;

export interface Lanes {
  readonly run: RecRun;
  /** How many runs can go at once. */
  readonly count: number;
  /** Classes per CTC step (the model's last output dimension), when the model declares it. */
  readonly classes: number | undefined;
  close(): Promise<void>;
}

interface Lane {
  run(data: Float32Array, dims: readonly number[]): Promise<LaneOutput>;
  /** True once the lane has failed for good (its worker died); it gets no more work. */
  dead(): boolean;
}

/**
 * Start `count` recognition lanes on the model at `path` (one in this thread, `count − 1` in
 * workers). A worker that will not start is left out (the other lanes carry on), so this never
 * fails for want of threads.
 *
 * @example
 * const lanes = await createLanes(paths.rec, 2);
 * try { const { probs, dims } = await lanes.run(data, [1, 3, 48, 320]); } finally { await lanes.close(); }
 */
export async function createLanes(path: string, count: number): Promise<Lanes> {
  const session = await OnnxSession.create(path, { threads: 1, spinning: false });
  const local: Lane = {
    async run(data, dims) {
      const out = Object.values(await session.run({ x: tensor('float32', data, dims) }))[0]!;
      return { probs: out.data as Float32Array, dims: out.dims };
    },
    dead: () => false,
  };
  const workers = (await Promise.all(Array.from({ length: Math.max(0, count - 1) }, () => startWorker(path)))).filter((w) => w !== undefined);
  const lanes: Lane[] = [local, ...workers.map((w) => w.lane)];
  const idle = [...lanes];
  const waiting: ((lane: Lane) => void)[] = [];
  const take = (): Promise<Lane> => (idle.length > 0 ? Promise.resolve(idle.pop()!) : new Promise((resolve) => waiting.push(resolve)));
  const give = (lane: Lane): void => {
    if (lane.dead()) return;
    const next = waiting.shift();
    if (next === undefined) idle.push(lane);
    else next(lane);
  };
  const classes = session.outputInfo[0]?.shape[2];
  return {
    count: lanes.length,
    classes: typeof classes === 'number' ? classes : undefined,
    async run(data, dims) {
      const lane = await take();
      try {
        return await lane.run(data, dims);
      } finally {
        give(lane);
      }
    },
    async close() {
      await Promise.all([...workers.map((w) => w.close()), session.release()]);
    },
  };
}

interface WorkerLane {
  readonly lane: Lane;
  close(): Promise<void>;
}

async function startWorker(path: string): Promise<WorkerLane | undefined> {
  let worker: Worker;
  try {
    worker = new Worker(siblingModule('./rec-worker', import.meta.url), { workerData: { path } });
  } catch {
    return undefined;
  }
  // A forgotten engine must not keep the process alive.
  worker.unref();
  const pending = new Map<number, { resolve: (out: LaneOutput) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let failure: Error | undefined;
  const fail = (error: Error): void => {
    failure = error;
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  const ready = await new Promise<boolean>((resolve) => {
    worker.once('message', (m: { ready: boolean }) => resolve(m.ready));
    worker.once('error', () => resolve(false));
  });
  if (!ready) {
    await worker.terminate();
    return undefined;
  }
  worker.on('message', (m: { id: number; probs?: Float32Array; dims?: number[]; error?: string }) => {
    const p = pending.get(m.id);
    if (p === undefined) return;
    pending.delete(m.id);
    if (m.error !== undefined || m.probs === undefined)
      p.reject(new InferenceError('FOLIO_MODEL_RUN', `paddle recognition lane: ${m.error ?? 'no output'}`, { meta: { path } }));
    else p.resolve({ probs: m.probs, dims: m.dims ?? [] });
  });
  worker.on('error', (error) =>
    fail(new InferenceError('FOLIO_MODEL_RUN', `paddle recognition lane stopped: ${error.message}`, { cause: error, meta: { path } })),
  );
  worker.on('exit', () => fail(new InferenceError('FOLIO_ENGINE_CLOSED', 'paddle recognition lane exited', { meta: { path } })));
  const lane: Lane = {
    run(data, dims) {
      if (failure !== undefined) return Promise.reject(failure);
      return new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        // Each batch is built for this run alone, so it moves to the worker instead of being
        // copied; the caller must not read it afterwards.
        worker.postMessage({ id, data, dims }, [data.buffer as ArrayBuffer]);
      });
    },
    dead: () => failure !== undefined,
  };
  return {
    lane,
    close: async () => {
      await worker.terminate();
    },
  };
}
