/**
 * Collects the pages of one document that need OCR and sends them to the engine in batches,
 * so a GPU engine sees several pages per call and an engine is created only when needed.
 */
import { describeError, errorCode } from '../../core/errors.ts';
import type { Element, RouteDecision } from '../../core/types.ts';
import type { OcrEngine, OcrPageResult, PageImage } from '../../inference/engine.ts';
import type { FormulaReader } from '../formula/index.ts';
import { layoutOcrResults } from '../layout/index.ts';
import { annotateElements, readScanFormulas, type ScanFormulaResult } from '../regions/index.ts';
import { FurnitureModel } from '../text-layer/furniture.ts';
import { hasInk } from './ink.ts';
import { logicalOcrMarkdown } from './ocr-bidi.ts';
import { analysePage, type PageResult, pageFailure } from './page-result.ts';

export interface PendingPage {
  readonly image: PageImage;
  /** Page size in the units bboxes should end in (PDF points, or pixels for images). */
  readonly width: number;
  readonly height: number;
  readonly route: RouteDecision;
  /** The image's resolution, when known (a rendered PDF page). */
  readonly dpi?: number;
}

export class OcrQueue {
  readonly #engine: (() => Promise<OcrEngine>) | undefined;
  readonly #batchSize: number;
  readonly #signal: AbortSignal | undefined;
  readonly #formula: (() => Promise<FormulaReader>) | undefined;
  #pending: PendingPage[] = [];
  /** The document's furniture judge: its pages come through in order, each knowing the earlier ones' margin rows. */
  readonly #furniture = new FurnitureModel('ocr');

  /** @param formula Reads the display formulas found on the pages (`readScanFormulas`); left out, the engine's text stays. */
  constructor(engine: (() => Promise<OcrEngine>) | undefined, batchSize: number, signal?: AbortSignal, formula?: () => Promise<FormulaReader>) {
    this.#engine = engine;
    this.#batchSize = batchSize;
    this.#signal = signal;
    this.#formula = formula;
  }

  get full(): boolean {
    return this.#pending.length >= this.#batchSize;
  }

  add(page: PendingPage): void {
    this.#pending.push(page);
  }

  /** Recognise everything queued; one result per page, failures recorded per page. */
  async flush(): Promise<PageResult[]> {
    const batch = this.#pending;
    this.#pending = [];
    if (batch.length === 0) return [];
    if (!this.#engine) {
      return batch.map((p) =>
        fail(
          p,
          'FOLIO_NO_OCR_ENGINE',
          `needs OCR (${p.route.reason}) but no OCR engine is configured: set the \`ocr\` option (or \`engine: 'auto'\` where the run creates one; CLI: --engine auto)`,
        ),
      );
    }
    let results;
    try {
      const engine = await this.#engine();
      const read = await engine.recognize(
        batch.map((p) => p.image),
        { signal: this.#signal },
      );
      // Engines that read lines hand back positioned pages: the layout stage every route shares
      // writes their Markdown, each page knowing the margin rows of the whole batch.
      results = layoutOcrResults(
        read,
        batch.map((p) => p.image.pageNumber),
        this.#furniture,
      );
    } catch (error) {
      if (batch.length === 1) return [fail(batch[0]!, errorCode(error), describeError(error))];
      // One bad page must not sink its batch: retry the pages one by one.
      const out: PageResult[] = [];
      for (const page of batch) {
        this.#pending = [page];
        out.push(...(await this.flush()));
      }
      return out;
    }
    const formulas = await this.#readFormulas(batch, results);
    return batch.map((p, i) => {
      const result = results[i]!;
      const read = formulas[i]!;
      const page = {
        docId: p.image.docId,
        pageNumber: p.image.pageNumber,
        width: p.width,
        height: p.height,
        markdown: read.markdown,
        route: { ...p.route, engine: result.engine, ...(Object.keys(read.details).length > 0 ? { details: { ...p.route.details, ...read.details } } : {}) },
        stats: result.stats,
      };
      const parsed = analysePage(page, true);
      let analysed = read.read.length === 0 ? parsed : { ...parsed, elements: annotateElements(parsed.elements, read.markdown, read.read) };
      if (read.read.length > 0 && !parsed.quality.passed) {
        // The formulas must not cost the page: without them it is what the engine read.
        const asRead = {
          ...page,
          markdown: logicalOcrMarkdown(result.markdown),
          route: { ...page.route, details: { ...page.route.details, regionsDropped: 'merged page failed the quality gate' } },
        };
        const plain = analysePage(asRead, true);
        if (plain.quality.passed) analysed = plain;
      }
      // No text came back: a page with ink failed to read, a page of specks is blank. The image
      // is scanned only then, so a page with text costs nothing more.
      return hasText(analysed.elements) ? analysed : analysePage(page, hasInk(p.image));
    });
  }

  /**
   * Each page's Markdown with its display formulas read by folio-ocr-math where found; when the
   * reader cannot be loaded or fails, the engine's text stays and the reason goes into the details.
   */
  async #readFormulas(batch: readonly PendingPage[], results: readonly OcrPageResult[]): Promise<ScanFormulaResult[]> {
    // An engine may write right-to-left text as it sits on the page, or in presentation forms.
    const pages = batch.map((p, i) => ({
      markdown: logicalOcrMarkdown(results[i]!.markdown),
      image: p.image,
      lines: results[i]!.lines,
      dpi: p.dpi,
      turn: turnOf(results[i]!),
    }));
    const asRead = pages.map((p) => ({ markdown: p.markdown, read: [], details: {} }));
    if (this.#formula === undefined) return asRead;
    try {
      return await readScanFormulas(pages, this.#formula);
    } catch (error) {
      this.#signal?.throwIfAborted();
      return asRead.map((p) => ({ ...p, details: { regionsFailed: `formula regions: ${describeError(error)}` } }));
    }
  }
}

/** The clockwise turn the engine made the page upright by (paddle's `rotation`). */
function turnOf(result: OcrPageResult): 0 | 90 | 180 | 270 {
  const r = result.stats['rotation'];
  return r === 90 || r === 180 || r === 270 ? r : 0;
}

function hasText(elements: readonly Element[]): boolean {
  return elements.some((element) => element.kind === 'figure' || element.text.trim() !== '');
}

function fail(p: PendingPage, code: string, reason: string): PageResult {
  const { source, docId, pageNumber } = p.image;
  // Engine errors usually name the page already; say it once.
  const named = reason.includes(source) ? reason : `${source} page ${pageNumber}: ${reason}`;
  return { ok: false, pageNumber, failure: pageFailure(source, docId, pageNumber, 'ocr', code, named) };
}
