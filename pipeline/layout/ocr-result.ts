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
import { FurnitureModel } from '../text-layer/furniture.ts';
import { layoutOcrPages } from './ocr-page.ts';

/**
 * The result with its Markdown written by the layout stage, when the engine left it positioned.
 *
 * @example
 * const [read] = await engine.recognize([image]);
 * const { markdown } = layoutOcrResult(read, image.pageNumber);
 */
export function layoutOcrResult(result: OcrPageResult, pageNumber: number): OcrPageResult {
  return layoutOcrResults([result], [pageNumber], new FurnitureModel('ocr'))[0]!;
}

/**
 * A document's batch of results laid out together with its furniture judge (see
 * `layoutOcrPages`); results with finished Markdown pass through.
 *
 * @example
 * const results = layoutOcrResults(read, batch.map((p) => p.pageNumber), furniture);
 */
export function layoutOcrResults(results: readonly OcrPageResult[], pageNumbers: readonly number[], furniture: FurnitureModel): OcrPageResult[] {
  const t0 = performance.now();
  const todo = results.flatMap((result, i) =>
    result.positioned === undefined ? [] : [{ i, positioned: result.positioned, toGrid: imageGrid(result.positioned.frame) }],
  );
  const laid = layoutOcrPages(
    todo.map(({ i, positioned, toGrid }) => ({ pageNumber: pageNumbers[i]!, ...positioned, toGrid })),
    furniture,
  );
  const layoutMs = todo.length === 0 ? 0 : (performance.now() - t0) / todo.length;
  const out = [...results];
  todo.forEach(({ i, positioned, toGrid }, j) => {
    // Laid out, the result no longer carries `positioned`: laying it out again changes nothing.
    const { positioned: _, ...read } = results[i]!;
    out[i] = {
      ...read,
      markdown: laid[j]!.markdown === '' ? '' : `${laid[j]!.markdown}\n`,
      lines: positioned.lines.map((l) => ({ text: l.text, box: toGrid(l.box), confidence: l.confidence })),
      stats: { ...read.stats, blocks: laid[j]!.blocks.length, layoutMs },
    };
  });
  return out;
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
