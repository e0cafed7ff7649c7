/**
 * Where an OCR engine's positioned page meets the layout stage: an engine that finds and reads
 * lines (paddle, the onnx block reader) returns them as plain data (`OcrPageResult.positioned`)
 * and leaves `markdown` empty; here they are laid out like any page, and the result gets its
 * Markdown and its lines on the image's grid. Engines that write finished Markdown (remote
 * VLMs, the onnx page reader) pass through untouched.
 */
import { imageGrid } from '../../core/ocr-frame.ts';
import type { OcrPageResult } from '../../core/types.ts';
import type { OcrEngine, RecognizeOptions } from '../../inference/engine.ts';
import type { FurnitureModel } from '../text-layer/furniture.ts';
import type { OcrLayoutOptions } from './ocr-page.ts';
import { layoutOcrPage, previewOcrPage } from './ocr-page.ts';

/**
 * The result with its Markdown written by the layout stage, when the engine left it positioned.
 *
 * @example
 * const [read] = await engine.recognize([image]);
 * const { markdown } = layoutOcrResult(read, image.pageNumber);
 */
export function layoutOcrResult(result: OcrPageResult, pageNumber: number, options: Readonly<OcrLayoutOptions> = {}): OcrPageResult {
  const { positioned, ...read } = result;
  if (positioned === undefined) return result;
  const t0 = performance.now();
  const toGrid = imageGrid(positioned.frame);
  const laid = layoutOcrPage({ pageNumber, ...positioned, toGrid }, options);
  // Laid out, the result no longer carries `positioned`: laying it out again changes nothing.
  return {
    ...read,
    markdown: laid.markdown === '' ? '' : `${laid.markdown}\n`,
    lines: positioned.lines.map((l) => ({ text: l.text, box: toGrid(l.box), confidence: l.confidence })),
    stats: { ...result.stats, blocks: laid.blocks.length, layoutMs: performance.now() - t0 },
  };
}

/**
 * Show a document's furniture judge the margin rows of a positioned result ahead of its layout
 * (see `previewOcrPage`); a result with finished Markdown shows nothing.
 */
export function previewOcrResult(result: OcrPageResult, pageNumber: number, furniture: FurnitureModel): void {
  const { positioned } = result;
  if (positioned !== undefined) previewOcrPage({ pageNumber, ...positioned, toGrid: imageGrid(positioned.frame) }, furniture);
}

/**
 * The engine with every page it returns laid out: for callers that want an engine's Markdown
 * (the server's OpenAI-compatible route, benchmarks). The run's OCR queue and region reader lay
 * results out themselves, so they take any engine a caller passes.
 *
 * @example
 * const engine = withLayout(await createEngine('paddle'));
 * const [page] = await engine.recognize([image]); // page.markdown is laid out
 */
export function withLayout(engine: OcrEngine): OcrEngine {
  return {
    name: engine.name,
    async recognize(pages, options?: RecognizeOptions) {
      const results = await engine.recognize(pages, options);
      return results.map((r, i) => layoutOcrResult(r, pages[i]?.pageNumber ?? i + 1));
    },
    close: () => engine.close(),
  };
}
