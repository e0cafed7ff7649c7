/**
 * The contract every OCR engine fulfils, local or remote: page images in; out, either Markdown
 * (a VLM that writes the page) or the page's recognised lines positioned in its upright,
 * deskewed frame (`OcrPageResult.positioned`, an engine that finds and reads lines), which the
 * layout stage every route shares (`pipeline/layout`) turns into Markdown. Engines do no layout.
 *
 * Markdown follows the DeepSeek-OCR conventions: tables as HTML, formulas as LaTeX, and, where
 * the engine knows where a block sits, a grounding tag before the block:
 * `<|ref|>label<|/ref|><|det|>[[x1, y1, x2, y2]]<|/det|>` with coordinates on a 0–999 grid of the
 * image. The parser (pipeline/markdown) turns them into page coordinates, so every engine is
 * treated alike.
 */

// The records that cross stages live in core/; engines re-export them for their callers.
import type { OcrPageResult, PageImage } from '../core/types.ts';

export type { OcrPageResult, PageImage } from '../core/types.ts';

export interface RecognizeOptions {
  readonly signal?: AbortSignal;
  /**
   * The images are known to read upright or at most a quarter turn (crops of a born-digital page,
   * whose text layer says which way is up): an engine may skip its upside-down check, which on
   * small crops costs about as much as finding the lines.
   * @default false
   */
  readonly upright?: boolean;
}

export interface OcrEngine {
  readonly name: string;
  /**
   * Recognise a batch of pages. Resolves to one result per page, in order. A page that fails
   * rejects with an `InferenceError` naming the page; transient faults are retried inside.
   */
  recognize(pages: readonly PageImage[], options?: RecognizeOptions): Promise<OcrPageResult[]>;
  /** Release sessions, sockets and workers. */
  close(): Promise<void>;
}
