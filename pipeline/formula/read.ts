/**
 * Formula crops → LaTeX through folio-ocr-math and the TypeScript engine (speculative decoding,
 * batched, CPU or WebGPU), each reading checked by `checkReading`; a crop whose reading fails keeps
 * the text route's result. The caller (the page router) decides which regions are formulas: display
 * formulas from paddle's layout on scanned pages, born-digital regions the text layer cannot rebuild.
 */
import { fileURLToPath } from 'node:url';
import type { PageImage } from '../../inference/engine.ts';
import { decode } from '../../inference/onnx/decode.ts';
import type { OcrModel } from '../../inference/onnx/load.ts';
import { loadModel } from '../../inference/onnx/load.ts';
import type { Device } from '../../inference/runtime/ort.ts';
import type { FormulaGuardOptions } from './guard.ts';
import { checkReading } from './guard.ts';
import type { FormulaViewOptions } from './view.ts';
import { formulaView, inkContrast } from './view.ts';

export const FORMULA_MODEL = fileURLToPath(new URL('../../inference/models/folio-ocr-math/', import.meta.url));

export interface FormulaCrop {
  /** The region's pixels (any size; grey, RGB or RGBA). */
  readonly image: PageImage;
  /** Display (`$$…$$`) or inline (`$…$`). */
  readonly display: boolean;
  /** What the text route made of the region: kept when the model's reading fails. */
  readonly fallback: string;
}

export interface FormulaReading {
  /** `$$latex$$` / `$latex$`, or the fallback. */
  readonly markdown: string;
  /** The model's LaTeX, when kept. */
  readonly latex?: string;
  readonly engine: 'folio-ocr-math' | 'text';
  /** The smallest logit gap over the reading's tokens (the guard's confidence figure). */
  readonly confidence: number;
  /** Why the model's reading was not kept. */
  readonly reason?: string;
  readonly tau: number;
}

export interface FormulaReaderOptions extends FormulaGuardOptions, FormulaViewOptions {
  /** @default the committed folio-ocr-math */
  readonly modelDir?: string;
  /** @default 'cpu' */
  readonly device?: Device;
  /** onnxruntime threads (0: its default). @default 0 */
  readonly threads?: number;
  /** Draft tokens per step. @default the model's K */
  readonly draftK?: number;
  /** Crops decoded together. @default 16 */
  readonly batchSize?: number;
}

export interface FormulaReader {
  read(crops: readonly FormulaCrop[]): Promise<FormulaReading[]>;
  close(): Promise<void>;
}

/**
 * @example
 * const reader = await createFormulaReader();
 * const [reading] = await reader.read([{ image, display: true, fallback: 'x2 + 1' }]);
 * await reader.close();
 */
export async function createFormulaReader(options: Readonly<FormulaReaderOptions> = {}): Promise<FormulaReader> {
  const { modelDir = FORMULA_MODEL, device = 'cpu', threads = 0, batchSize = 16 } = options;
  const model: OcrModel = await loadModel({ modelDir, device, threads });
  const view = { height: model.config.image.globalView.height, width: model.config.image.globalView.width };
  return {
    async read(crops) {
      const { minInkContrast = 64 } = options;
      const readings: FormulaReading[] = new Array(crops.length);
      const inked: number[] = [];
      crops.forEach((crop, i) => {
        const contrast = inkContrast(crop.image);
        if (contrast >= minInkContrast) inked.push(i);
        else readings[i] = { markdown: crop.fallback, engine: 'text', reason: `no ink (contrast ${contrast} < ${minInkContrast})`, confidence: 0, tau: 0 };
      });
      for (let b = 0; b < inked.length; b += batchSize) {
        const index = inked.slice(b, b + batchSize);
        const batch = index.map((i) => crops[i]!);
        const out = await decode(
          model,
          batch.map((c) => formulaView(c.image, { view, ...options })),
          options.draftK === undefined ? {} : { draftK: options.draftK },
        );
        batch.forEach((crop, j) => {
          const { text, stats } = out[j]!;
          const latex = text.trim();
          const verdict = checkReading(latex, stats, crop.image.width, options);
          const common = { confidence: stats.minMargin, tau: stats.tau };
          readings[index[j]!] = verdict.ok
            ? { markdown: crop.display ? `$$${latex}$$` : `$${latex}$`, latex, engine: 'folio-ocr-math', ...common }
            : { markdown: crop.fallback, engine: 'text', reason: verdict.reason, ...common };
        });
      }
      return readings;
    },
    close: () => model.release(),
  };
}
