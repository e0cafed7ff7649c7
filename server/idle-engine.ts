/**
 * The served OCR engine, let go when idle. onnxruntime keeps the memory arena of its largest
 * batch for the life of a session (a batch of 8 scans takes `folio serve` from ~230 to ~600 MB
 * and it stays there); closing the engine gives that back (measured: 598 → 240 MB). So after
 * `idleMs` without a page the engine is closed, and the next page creates it again (a second or
 * two, once per quiet spell). Busy servers never pay it.
 */
import type { OcrEngine } from '../inference/engine.ts';

export interface IdleEngineOptions {
  /** Close the engine after this long without a page, in ms; 0 keeps it for good. @default 60000 */
  readonly idleMs?: number;
}

/**
 * An engine that creates `create()` on first use and closes it after `idleMs` idle.
 *
 * @example
 * const engine = idleReleasingEngine('paddle', () => createEngine('paddle'), { idleMs: 60_000 })
 */
export function idleReleasingEngine(name: string, create: () => Promise<OcrEngine>, options: Readonly<IdleEngineOptions> = {}): OcrEngine {
  const { idleMs = 60_000 } = options;
  let current: Promise<OcrEngine> | undefined;
  let busy = 0;
  let timer: NodeJS.Timeout | undefined;

  async function release(): Promise<void> {
    if (busy > 0 || current === undefined) return;
    const engine = current;
    current = undefined;
    await (await engine.catch(() => undefined))?.close();
  }

  return {
    name,
    async recognize(pages, recognizeOptions) {
      clearTimeout(timer);
      busy++;
      try {
        if (current === undefined) {
          current = create();
          // A failed creation is not kept: the next page tries again.
          current.catch(() => (current = undefined));
        }
        return await (await current).recognize(pages, recognizeOptions);
      } finally {
        busy--;
        if (busy === 0 && idleMs > 0) {
          timer = setTimeout(() => void release(), idleMs);
          // An idle timer must not keep a closing process alive.
          timer.unref();
        }
      }
    },
    async close() {
      clearTimeout(timer);
      const engine = current;
      current = undefined;
      if (engine !== undefined) await (await engine.catch(() => undefined))?.close();
    },
  };
}
