/**
 * One document's analysis while it runs: the pages read so far (each with its own elements, as
 * the pipeline hands them over before the steps that look across pages) and the listeners that
 * want the next ones. The document view paints its first page from here instead of waiting for
 * the whole document; the final views replace these when the analysis ends.
 */
import type { SourceDocument } from '../../core/types.ts';
import type { OcrEngine } from '../../inference/engine.ts';
import type { PageResult, ProcessedDocument } from '../../pipeline/run/index.ts';
import { analyse, readPageView } from './analysis.ts';
import type { PageView } from './api-types.ts';

export interface LiveAnalysisOptions {
  readonly engine: OcrEngine;
  /** The largest page image, as the server's `--max-pixels`. @default 100_000_000 */
  readonly maxPixels?: number;
}

export class LiveAnalysis {
  /** The whole document, once every page is read and the document-wide steps ran. */
  readonly result: Promise<ProcessedDocument>;
  /** True once `result` has settled (read or failed). */
  settled = false;
  readonly #read = new Map<number, PageView>();
  readonly #listeners = new Set<(page: PageView) => void>();

  constructor(doc: SourceDocument, options: Readonly<LiveAnalysisOptions>) {
    const { engine, maxPixels } = options;
    this.result = analyse(doc, {
      engine,
      // A scanned page is read as soon as it is reached, not when three more have joined its
      // batch: the viewer waits for pages in order (the embedded engine reads one page at a time anyway).
      ocrBatchSize: 1,
      ...(maxPixels === undefined ? {} : { maxPixels }),
      onPageRead: (result: PageResult) => {
        const view = readPageView(result);
        this.#read.set(view.pageNumber, view);
        for (const listener of this.#listeners) listener(view);
      },
    });
    // Listeners only matter while pages come in; nobody is told about a page twice.
    const end = (): void => {
      this.settled = true;
      this.#listeners.clear();
    };
    this.result.then(end, end);
  }

  /** The pages read so far, in page order. */
  pagesRead(): PageView[] {
    return [...this.#read.values()].sort((a, b) => a.pageNumber - b.pageNumber);
  }

  /** Calls `listener` with each page read from now on, until the analysis ends; returns the unsubscribe. */
  onPage(listener: (page: PageView) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
