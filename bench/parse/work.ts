import { stableId } from '../../core/hash.ts';
import type { PageMarkdown } from '../../core/types.ts';
import { chunkDocument } from '../../pipeline/chunk/index.ts';
import { mergeContinuedTables, parsePage } from '../../pipeline/markdown/index.ts';
import { checkPage } from '../../pipeline/quality/index.ts';
import type { CorpusDocument } from './corpus.ts';

export interface WorkCounts {
  pages: number;
  elements: number;
  chunks: number;
  failedPages: number;
}

/** Parse, check, merge and chunk documents as the orchestrator does for `.md` inputs. */
export function processDocuments(documents: readonly CorpusDocument[]): WorkCounts {
  const counts: WorkCounts = { pages: 0, elements: 0, chunks: 0, failedPages: 0 };
  for (const document of documents) {
    const docId = stableId(document.name);
    const quality = new Map<number, ReturnType<typeof checkPage>>();
    const perPage = document.pages.map((markdown, i) => {
      const page: PageMarkdown = { docId, pageNumber: i + 1, width: 612, height: 792, markdown, route: { engine: 'markdown', reason: 'bench' } };
      const elements = parsePage(page);
      const report = checkPage(page, elements, { hasInk: true });
      quality.set(page.pageNumber, report);
      if (!report.passed) counts.failedPages++;
      return elements;
    });
    const elements = mergeContinuedTables(perPage);
    const chunks = chunkDocument(elements, { docId, source: document.name, contentHash: docId, engine: 'markdown', quality });
    counts.pages += document.pages.length;
    counts.elements += elements.length;
    counts.chunks += chunks.length;
  }
  return counts;
}
