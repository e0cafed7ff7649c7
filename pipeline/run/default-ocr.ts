/**
 * The library's OCR default, the CLI's: under `auto` (the default) pages without a good text
 * layer go to the embedded PaddleOCR engine, and a named engine (`paddle`, `onnx`, …) is created
 * with its defaults, unless the caller passes its own `ocr` or `engine: 'text'`. Created on first
 * use (a born-digital run never loads it) and closed by whoever owns the run.
 */
import type { OcrEngine } from '../../inference/engine.ts';
import type { EngineChoice } from './options.ts';

/** An OCR factory made once per run, and the close that goes with it. */
export interface OwnedOcr {
  readonly ocr: (() => Promise<OcrEngine>) | undefined;
  close(): Promise<void>;
}

/**
 * `given` when the caller passed one (the caller closes it); else the default engine for
 * `engine`, created lazily and closed by `close()`; none for `text`.
 *
 * @example
 * const { ocr, close } = defaultOcr(options.ocr, options.engine)
 * try { ... } finally { await close() }
 */
export function defaultOcr(given: (() => Promise<OcrEngine>) | undefined, engine: EngineChoice | undefined): OwnedOcr {
  const factory = given ?? defaultOcrFactory(engine);
  if (given !== undefined || factory === undefined) return { ocr: given, close: async () => {} };
  let created: Promise<OcrEngine> | undefined;
  return {
    ocr: () => (created ??= factory()),
    close: async () => {
      if (created !== undefined) await (await created.catch(() => undefined))?.close();
    },
  };
}

/** A factory making a new default engine on each call (the caller caches and closes), or none for `text`. */
export function defaultOcrFactory(engine: EngineChoice | undefined): (() => Promise<OcrEngine>) | undefined {
  if (engine === 'text') return undefined;
  const name = engine === undefined || engine === 'auto' ? 'paddle' : engine;
  return () => import('../../inference/create-engine.ts').then(({ createEngine }) => createEngine(name));
}
