/**
 * Collects the pages of one document that need OCR and sends them to the engine in batches,
 * so a GPU engine sees several pages per call and an engine is created only when needed.
 */
import { describeError, errorCode } from '../../core/errors.ts';
import type { Element, RouteDecision } from '../../core/types.ts';
import type { OcrEngine, PageImage } from '../../inference/engine.ts';
import { hasInk } from './ink.ts';
import { logicalOcrMarkdown } from './ocr-bidi.ts';
import { analysePage, type PageResult, pageFailure } from './page-result.ts';

export interface PendingPage {
  readonly image: PageImage;
  /** Page size in the units bboxes should end in (PDF points, or pixels for images). */
  readonly width: number;
  readonly height: number;
  readonly route: RouteDecision;
}

export class OcrQueue {
  readonly #engine: (() => Promise<OcrEngine>) | undefined;
  readonly #batchSize: number;
  readonly #signal: AbortSignal | undefined;
  #pending: PendingPage[] = [];

  constructor(engine: (() => Promise<OcrEngine>) | undefined, batchSize: number, signal?: AbortSignal) {
    this.#engine = engine;
    this.#batchSize = batchSize;
    this.#signal = signal;
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
      return batch.map((p) => fail(p, 'FOLIO_NO_OCR_ENGINE', `needs OCR (${p.route.reason}) but no OCR engine is configured; use --engine auto or paddle`));
    }
    let results;
    try {
      const engine = await this.#engine();
      results = await engine.recognize(
        batch.map((p) => p.image),
        { signal: this.#signal },
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
    return batch.map((p, i) => {
      const result = results[i]!;
      const page = {
        docId: p.image.docId,
        pageNumber: p.image.pageNumber,
        width: p.width,
        height: p.height,
        // An engine may write right-to-left text as it sits on the page, or in presentation forms.
        markdown: logicalOcrMarkdown(result.markdown),
        route: { ...p.route, engine: result.engine },
        stats: result.stats,
      };
      const analysed = analysePage(page, true);
      // No text came back: a page with ink failed to read, a page of specks is blank. The image
      // is scanned only then, so a page with text costs nothing more.
      return hasText(analysed.elements) ? analysed : analysePage(page, hasInk(p.image));
    });
  }
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
