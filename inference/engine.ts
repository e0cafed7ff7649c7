/**
 * The contract every OCR engine fulfils, local or remote: page images in, Markdown out.
 *
 * Markdown follows the DeepSeek-OCR conventions: tables as HTML, formulas as LaTeX, and, where
 * the engine knows where a block sits, a grounding tag before the block:
 * `<|ref|>label<|/ref|><|det|>[[x1, y1, x2, y2]]<|/det|>` with coordinates on a 0–999 grid of the
 * image. The parser (pipeline/markdown) turns them into page coordinates, so every engine is
 * treated alike.
 */

/** A rendered page: interleaved 8-bit pixels, top-left origin. */
export interface PageImage {
  /** Names the page in errors and stats. */
  readonly docId: string;
  readonly source: string;
  readonly pageNumber: number;
  readonly data: Uint8Array;
  readonly width: number;
  readonly height: number;
  /** 1 (grey), 3 (RGB) or 4 (RGBA). */
  readonly channels: 1 | 3 | 4;
}

export interface OcrPageResult {
  readonly markdown: string;
  /** The engine's name, e.g. `paddle`, `onnx`, `remote`. */
  readonly engine: string;
  /** Figures per page: `tokens`, `steps`, `ms`, `retries`, … */
  readonly stats: Readonly<Record<string, number>>;
}

export interface RecognizeOptions {
  readonly signal?: AbortSignal;
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
