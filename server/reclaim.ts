/**
 * Give the main thread's idle heap back. V8 collects garbage only when JavaScript allocates, so a
 * server gone quiet after a large document keeps the heap it grew for it (measured: +90 MB after
 * a 2,000-page document and 8 large ones, the garbage of their results and answers), and a plain
 * collection keeps the freed pages pooled. A last-resort collection both frees and unmaps them.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collect = (options?: Readonly<{ type: 'major'; execution: 'sync'; flavor: 'last-resort' }>) => void;

let collect: Collect | undefined;

/**
 * Run V8's last-resort collection on this thread (tens of milliseconds on a quiet server). Call
 * it when idle only: it stops the thread while it runs.
 *
 * @example
 * pool = new WorkerPool({ ..., idleMs: 60_000, onIdle: reclaimHeap });
 */
export function reclaimHeap(): void {
  if (collect === undefined) {
    const exposed = (globalThis as { gc?: Collect }).gc;
    if (exposed !== undefined) collect = exposed;
    else {
      // `--expose-gc` set now makes `gc` appear in contexts created from here on, not in this one.
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as Collect;
    }
  }
  collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
