/**
 * Markdown files that already hold OCR output (one page, or pages separated by form feeds, as
 * pdftotext separates them): users who call jina-ocr-v1 through an API get Folio's structure.
 */
import type { SourceDocument } from '../../core/types.ts';
import { splitPages } from '../markdown/index.ts';
import { logicalOcrMarkdown } from './ocr-bidi.ts';
import type { ProcessOptions } from './options.ts';
import { analysePage, type PageResult } from './page-result.ts';

/** Grounding boxes of a Markdown input have no page size: they stay on the 0–999 grid. */
const GRID = 999;

export async function* markdownPages(doc: SourceDocument, options: Readonly<ProcessOptions>): AsyncIterable<PageResult> {
  const text = new TextDecoder().decode(doc.bytes);
  // OCR output from elsewhere: right-to-left text may be in visual order or presentation forms.
  const pages = splitPages(text).map(logicalOcrMarkdown);
  for (const [i, markdown] of pages.entries()) {
    const pageNumber = i + 1;
    options.onPage?.({ source: doc.uri, pageNumber, engine: 'markdown' });
    yield analysePage(
      { docId: doc.id, pageNumber, width: GRID, height: GRID, markdown, route: { engine: 'markdown', reason: 'markdown-input' } },
      markdown.trim().length > 0,
    );
  }
}
