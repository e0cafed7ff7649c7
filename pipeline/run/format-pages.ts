/**
 * Declarative formats (Word, Excel, PowerPoint, OpenDocument, HTML, EPUB, e-mail, CSV): the reader
 * builds each page's Markdown directly (a slide or sheet is a page; a flowing document is one),
 * which then goes through the same parse and quality gate as every other page. Headers and footers
 * come back as furniture elements, left out of the clean Markdown like a PDF's. Attachments (an
 * e-mail's) are handed back through `attachments`, for the caller to read as child documents.
 */
import { basename } from 'node:path';
import type { Element, SourceDocument } from '../../core/types.ts';
import { escapeMarkdown, type FormatAttachment, pageMarkdown, readFormat } from '../formats/index.ts';
import { locateElements } from './format-locations.ts';
import { pictureCounts, readPictures } from './format-pictures.ts';
import type { ProcessOptions } from './options.ts';
import { analysePage, type PageResult } from './page-result.ts';

/** Declarative pages have no size: the grid Markdown inputs use. */
const GRID = 999;

/**
 * `attachments` receives the files an e-mail carries; `declared` the titles the file declares (its
 * title property, an e-mail's subject).
 *
 * @example
 * const attachments: FormatAttachment[] = [];
 * for await (const page of formatPages(mail, { engine: 'text' }, attachments)) pages.push(page);
 */
export async function* formatPages(
  doc: SourceDocument,
  options: Readonly<ProcessOptions>,
  attachments: FormatAttachment[] = [],
  declared: (string | undefined)[] = [],
): AsyncIterable<PageResult> {
  const read = await readFormat(doc.bytes, doc.mime, { revisions: options.revisions ?? 'accept' });
  attachments.push(...(read.attachments ?? []));
  declared.push(read.metadata?.['title'], read.metadata?.['subject']);
  // A CSV's one sheet is named after its file, as a spreadsheet application names it.
  const fileSheet = basename(doc.relativePath).replace(/\.[^.]+$/, '');
  // Pictures are read under `auto` or a named engine, never under `text` (then `ocr` is absent too).
  const ocr = options.engine === 'text' ? undefined : options.ocr;
  const pictures = pictureCounts();
  for (const [i, original] of read.pages.entries()) {
    options.signal?.throwIfAborted();
    const pageNumber = i + 1;
    const before = { ...pictures, reasons: pictures.reasons.length };
    const page = ocr === undefined || read.media === undefined ? original : await readPictures(doc, original, read.media, ocr, pictures, options);
    const pictureDetails: Record<string, number | string> = Object.fromEntries(
      (['read', 'labelled', 'skipped', 'refused'] as const)
        .filter((key) => pictures[key] > before[key])
        .map((key) => [`pictures${key[0]!.toUpperCase()}${key.slice(1)}`, pictures[key] - before[key]]),
    );
    if (pictures.reasons.length > before.reasons) pictureDetails['picturesRefusedWhy'] = pictures.reasons.slice(before.reasons).join('; ');
    options.onPage?.({ source: doc.uri, pageNumber, engine: read.format });
    const markdown = pageMarkdown(page);
    const result = analysePage(
      {
        docId: doc.id,
        pageNumber,
        width: GRID,
        height: GRID,
        markdown,
        route: { engine: read.format, reason: 'declarative', ...routeDetails(page.label, pictureDetails) },
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
    const elements = [...furniture('pageHeader', page.headers), ...result.elements, ...notes, ...furniture('pageFooter', page.footers)];
    yield { ...result, elements: locateElements(elements, page, fileSheet) };
  }
}

/** The page's label (slide title, sheet name) and what became of its pictures; nothing when neither. */
function routeDetails(label: string | undefined, pictures: Readonly<Record<string, number | string>>): { details?: Record<string, number | string> } {
  const details = { ...(label === undefined ? {} : { label }), ...pictures };
  return Object.keys(details).length === 0 ? {} : { details };
}
