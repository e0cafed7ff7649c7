import { ConfigurationError } from '../../core/errors.ts';
import type { OcrEngine } from '../../inference/engine.ts';
import type { Device } from '../../inference/runtime/ort.ts';
import type { PageResult } from './page-result.ts';

/** How pages are turned into Markdown. */
export type EngineChoice = 'auto' | 'text' | string;

export interface ProcessOptions {
  /**
   * `auto` reads the text layer where it is good and sends other pages to the OCR engine;
   * `text` never runs OCR; an engine name (`paddle`, `onnx`, …) forces OCR on every page.
   * @default 'auto'
   */
  readonly engine?: EngineChoice;
  /**
   * The OCR engine used for pages that need it, created on first use. `processSources`,
   * `convert`, `ingest` and `FolioLoader` default to the CLI's: the embedded PaddleOCR engine
   * under `auto` (or the named `engine`), closed when the run ends; none under `text`. Given
   * straight to `processDocument` without one, such pages are recorded as failed with the reason.
   * @default the embedded engine (see above)
   */
  readonly ocr?: () => Promise<OcrEngine>;
  /** Password for encrypted PDFs. */
  readonly password?: string;
  /** Token budget per chunk. @default 512 */
  readonly maxTokens?: number;
  /** Tokens repeated between neighbouring chunks. @default 0 */
  readonly overlapTokens?: number;
  /** Counts tokens the way the embedding model does; an approximation when absent. */
  readonly countTokens?: (text: string) => number;
  /** Pages per OCR call. @default 4 */
  readonly ocrBatchSize?: number;
  /**
   * Under `auto`, raster images on text-layer pages (banners, logos, figures with words) are
   * cropped from the rendered page and read by the OCR engine; their words join the page as
   * blocks in reading order. `false` leaves images unread. @default true
   */
  readonly imageRegions?: boolean;
  /**
   * Under `auto`, formula lines the text layer cannot rebuild into LaTeX are cropped and read by
   * folio-ocr-math; a reading its guard accepts replaces the text. `false` keeps the text. @default true
   */
  readonly formulaRegions?: boolean;
  /** Where folio-ocr-math runs. @default 'cpu' */
  readonly formulaDevice?: Device;
  /**
   * Tracked changes and comments of Word files: `accept` reads the text as if every change were
   * accepted (deletions gone, comments left out); `show` keeps deleted text struck through
   * (`~~…~~`) and comments as footnotes where they are anchored.
   * @default 'accept'
   */
  readonly revisions?: 'accept' | 'show';
  /** Rendering resolution for OCR; chosen from the page size when absent. */
  readonly dpi?: number;
  /**
   * The largest page image read or rendered, in pixels: an image over it fails its page with
   * the reason, a PDF page is rendered smaller (a pixel bomb costs no memory). `folio serve`'s
   * `--max-pixels` sets it for every route. @default 100_000_000
   */
  readonly maxPixels?: number;
  readonly signal?: AbortSignal;
  /** Called after each page, for progress bars. */
  readonly onPage?: (event: { readonly source: string; readonly pageNumber: number; readonly engine: string }) => void;
  /**
   * Called with each page as soon as it is read: its own elements and quality, before the steps
   * that look across pages (furniture by repetition, tables continued over a page break) revise
   * them. For viewers that paint pages as they come (the web app's document view). Functions do
   * not cross to worker threads: it is not called when documents are read by workers.
   * @default undefined
   */
  readonly onPageRead?: (page: PageResult) => void;
}

export function validateProcessOptions(options: Readonly<ProcessOptions>): void {
  const { maxTokens, ocrBatchSize, revisions } = options;
  if (revisions !== undefined && revisions !== 'accept' && revisions !== 'show') {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`revisions\` to be 'accept' or 'show', got \`${String(revisions)}\` (${typeof revisions})`);
  }
  if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || maxTokens < 16)) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`maxTokens\` to be an integer from 16 and up, got \`${maxTokens}\` (${typeof maxTokens})`);
  }
  if (ocrBatchSize !== undefined && (!Number.isInteger(ocrBatchSize) || ocrBatchSize < 1)) {
    throw new ConfigurationError(
      'FOLIO_BAD_OPTION',
      `Expected \`ocrBatchSize\` to be an integer from 1 and up, got \`${ocrBatchSize}\` (${typeof ocrBatchSize})`,
    );
  }
}
