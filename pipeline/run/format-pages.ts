/**
 * Declarative formats (Word, Excel, PowerPoint, OpenDocument, HTML, EPUB, e-mail, CSV): the reader
 * builds each page's Markdown directly (a slide or sheet is a page; a flowing document is one),
 * which then goes through the same parse and quality gate as every other page. Headers and footers
 * come back as furniture elements, left out of the clean Markdown like a PDF's.
 */
import type { Element, SourceDocument } from '../../core/types.ts';
import { escapeMarkdown, pageMarkdown, readFormat } from '../formats/index.ts';
import { attachmentPages } from './attachment-pages.ts';
import type { ProcessOptions } from './options.ts';
import { analysePage, type PageResult } from './page-result.ts';

/** Declarative pages have no size: the grid Markdown inputs use. */
const GRID = 999;

/** `declared` receives the titles the file declares (its title property, an e-mail's subject). */
export async function* formatPages(doc: SourceDocument, options: Readonly<ProcessOptions>, declared: (string | undefined)[] = []): AsyncIterable<PageResult> {
  const read = await readFormat(doc.bytes, doc.mime, { revisions: options.revisions ?? 'accept' });
  declared.push(read.metadata?.['title'], read.metadata?.['subject']);
  for (const [i, page] of read.pages.entries()) {
    options.signal?.throwIfAborted();
    const pageNumber = i + 1;
    options.onPage?.({ source: doc.uri, pageNumber, engine: read.format });
    const markdown = pageMarkdown(page);
    const result = analysePage(
      {
        docId: doc.id,
        pageNumber,
        width: GRID,
        height: GRID,
        markdown,
        route: { engine: read.format, reason: 'declarative', ...(page.label === undefined ? {} : { details: { label: page.label } }) },
      },
      markdown.trim().length > 0,
      // Repetition in a file is the author's (a table of alike rows), not a decoding loop to cut.
      { collapseLoops: false },
      { repetition: false },
    );
    const furniture = (kind: 'pageHeader' | 'pageFooter', texts: readonly string[] | undefined): Element[] =>
      (texts ?? []).map((text) => ({ kind, text, headingPath: [], pageNumber, pages: [pageNumber] }));
    const notes: Element[] = (page.notes ?? []).map((text) => ({
      kind: 'footnote',
      label: 'speaker_notes',
      text,
      markdown: `> **Notes:** ${escapeMarkdown(text)}`,
      headingPath: [],
      pageNumber,
      pages: [pageNumber],
    }));
    yield { ...result, elements: [...furniture('pageHeader', page.headers), ...result.elements, ...notes, ...furniture('pageFooter', page.footers)] };
  }
  let next = read.pages.length + 1;
  for (const attachment of read.attachments ?? []) {
    for await (const result of attachmentPages(doc, attachment, next, options)) {
      next = (result.ok ? result.page.pageNumber : result.pageNumber) + 1;
      yield result;
    }
  }
}
