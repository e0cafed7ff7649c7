/**
 * OpenDocument (ODT, ODS, ODP) from `content.xml`: headings by outline level, paragraphs with
 * links, nested lists, tables with spans, text boxes and image descriptions; one page per sheet
 * (tables found as in Excel) and per slide (title frame as heading, outline frames as lists).
 */
import { SourceError } from '../../core/errors.ts';
import type { Block, ListItem, Span, TableCell } from './blocks.ts';
import { blockText, isBlank } from './blocks.ts';
import { packageTitle, readPart } from './ooxml.ts';
import { type SheetCell, sheetBlocks } from './sheet-tables.ts';
import type { FormatDocument, FormatPage } from './types.ts';
import { attr, find, kid, kids, textOf, type XmlElement } from './xml.ts';
import { openZip, packageMedia } from './zip.ts';

/** Inline content of a paragraph or heading: spans, links, spaces, tabs and breaks. */
/** Footnotes and endnotes met while reading spans: cited as `[^id]` where they stand. */
type Notes = { id: string; text: string }[];

function spans(node: XmlElement, href?: string, out: Span[] = [], notes?: Notes): Span[] {
  for (const c of node.children) {
    if (typeof c === 'string') {
      out.push({ text: c, ...(href === undefined ? {} : { href }) });
      continue;
    }
    switch (c.local) {
      case 's':
        out.push({ text: ' '.repeat(Math.min(100, Number(attr(c, 'c') ?? 1) || 1)) });
        break;
      case 'tab':
      case 'line-break':
        out.push({ text: ' ' });
        break;
      case 'a':
        spans(c, attr(c, 'href'), out, notes);
        break;
      case 'span':
      case 'meta':
      case 'bookmark-ref':
      case 'reference-ref':
        spans(c, href, out, notes);
        break;
      case 'note': {
        // The note's body is not part of the sentence that cites it: it becomes a footnote.
        const id = `${attr(c, 'note-class') === 'endnote' ? 'e' : 'n'}${(notes?.length ?? 0) + 1}`;
        if (notes) {
          const body = kids(kid(c, 'note-body'))
            .map((p) =>
              spans(p)
                .map((sp) => sp.text)
                .join(''),
            )
            .join(' ')
            .replace(/\s+/g, ' ')
            .trim();
          if (body !== '') {
            notes.push({ id, text: body });
            out.push({ text: `[^${id}]`, raw: true });
          }
        }
        break;
      }
      default:
        break;
    }
  }
  return out;
}

function listItems(list: XmlElement, level: number, items: ListItem[], ordered: boolean): void {
  for (const item of kids(list)) {
    if (item.local !== 'list-item' && item.local !== 'list-header') continue;
    for (const child of kids(item)) {
      if (child.local === 'p' || child.local === 'h') {
        const s = spans(child);
        if (!isBlank(s)) items.push({ spans: s, level, ordered });
      } else if (child.local === 'list') listItems(child, level + 1, items, ordered);
    }
  }
}

function table(node: XmlElement): Block {
  const rows: TableCell[][] = [];
  const visit = (parent: XmlElement, header: boolean): void => {
    for (const row of kids(parent)) {
      if (row.local === 'table-header-rows') visit(row, true);
      else if (row.local === 'table-rows' || row.local === 'table-row-group') visit(row, header);
      else if (row.local === 'table-row') {
        const cells: TableCell[] = [];
        for (const cell of kids(row, 'table-cell')) {
          cells.push({
            text: textBlocks(cell).map(blockText).join(' ').trim(),
            rowspan: Number(attr(cell, 'number-rows-spanned') ?? 1) || 1,
            colspan: Number(attr(cell, 'number-columns-spanned') ?? 1) || 1,
            header: header || rows.length === 0,
          });
        }
        rows.push(cells);
      }
    }
  };
  visit(node, false);
  return { kind: 'table', rows };
}

/** The blocks of a text container (the document body, a section, a text box, a cell). */
function textBlocks(container: XmlElement, out: Block[] = [], depth = 0, notes?: Notes): Block[] {
  if (depth > 32) return out;
  for (const node of kids(container)) {
    switch (node.local) {
      case 'h': {
        const s = spans(node, undefined, [], notes);
        if (!isBlank(s)) out.push({ kind: 'heading', level: Math.min(6, Number(attr(node, 'outline-level') ?? 1) || 1), spans: s });
        frames(node, out, depth);
        break;
      }
      case 'p': {
        const s = spans(node, undefined, [], notes);
        if (!isBlank(s)) out.push({ kind: 'paragraph', spans: s });
        frames(node, out, depth);
        break;
      }
      case 'list': {
        const items: ListItem[] = [];
        listItems(node, 0, items, false);
        if (items.length > 0) out.push({ kind: 'list', items });
        break;
      }
      case 'table':
        out.push(table(node));
        break;
      case 'section':
      case 'text-box':
      case 'frame':
      case 'g':
        textBlocks(node, out, depth + 1, notes);
        break;
      case 'image': {
        const alt = textOf(kid(node, 'desc') ?? kid(node, 'title')).trim();
        // A linked picture (a URL, a file beside the document) is never fetched: only one inside the package.
        const href = attr(node, 'href');
        out.push({ kind: 'figure', alt, ...(href !== undefined && !/^[a-z][\w+.-]*:|^\.\.|^\//i.test(href) ? { src: href.replace(/^\.\//, '') } : {}) });
        break;
      }
      default:
        break;
    }
  }
  return out;
}

/** Frames anchored inside a paragraph (text boxes, images) follow it. */
function frames(paragraph: XmlElement, out: Block[], depth: number): void {
  for (const c of kids(paragraph)) if (c.local === 'frame' || c.local === 'custom-shape') textBlocks(c, out, depth + 1);
}

function sheets(spreadsheet: XmlElement, maxCells: number): FormatPage[] {
  const pages: FormatPage[] = [];
  let total = 0;
  for (const sheet of kids(spreadsheet, 'table')) {
    const name = attr(sheet, 'name') ?? `Sheet${pages.length + 1}`;
    const cells: SheetCell[] = [];
    const merges: { top: number; left: number; bottom: number; right: number }[] = [];
    let row = 0;
    const rowsOf = (parent: XmlElement): XmlElement[] =>
      kids(parent).flatMap((r) => (r.local === 'table-row' ? [r] : /^table-(header-)?rows$|^table-row-group$/.test(r.local) ? rowsOf(r) : []));
    for (const r of rowsOf(sheet)) {
      const repeat = Math.max(1, Number(attr(r, 'number-rows-repeated') ?? 1) || 1);
      let col = 0;
      const rowCells: SheetCell[] = [];
      for (const c of kids(r)) {
        if (c.local !== 'table-cell' && c.local !== 'covered-table-cell') continue;
        const span = Math.max(1, Number(attr(c, 'number-columns-repeated') ?? 1) || 1);
        const text = kids(c, 'p')
          .map((p) =>
            spans(p)
              .map((s) => s.text)
              .join(''),
          )
          .join(' ')
          .trim();
        if (text !== '' && c.local === 'table-cell') {
          for (let k = 0; k < Math.min(span, 1000); k++) rowCells.push({ row, col: col + k, text });
          const rs = Number(attr(c, 'number-rows-spanned') ?? 1) || 1;
          const cs = Number(attr(c, 'number-columns-spanned') ?? 1) || 1;
          if (rs > 1 || cs > 1) merges.push({ top: row, left: col, bottom: row + rs - 1, right: col + cs - 1 });
        }
        col += span;
      }
      // Repeated rows are mostly the sheet's empty tail; filled repeats are copied, within the bound.
      for (let k = 0; k < (rowCells.length === 0 ? 0 : Math.min(repeat, 1000)); k++) {
        for (const cell of rowCells) cells.push({ ...cell, row: row + k });
        total += rowCells.length;
        if (total > maxCells) throw new SourceError('FOLIO_FORMAT_TOO_LARGE', `the spreadsheet holds more than ${maxCells} cells`);
      }
      row += repeat;
    }
    pages.push({ blocks: [{ kind: 'heading', level: 2, spans: [{ text: name }] }, ...sheetBlocks(cells, merges)], label: name, sheet: name });
  }
  return pages;
}

/** A slide's speaker notes: the text boxes of its `presentation:notes` (the slide thumbnail there has none). */
function slideNotes(page: XmlElement): string[] {
  const notes = kid(page, 'notes');
  if (!notes) return [];
  return kids(notes)
    .flatMap((frame) => (frame.local === 'frame' ? kids(frame, 'text-box') : []))
    .map((box) =>
      kids(box, 'p')
        .map((p) =>
          spans(p)
            .map((s) => s.text)
            .join('')
            .trim(),
        )
        .filter((t) => t !== '')
        .join(' '),
    )
    .filter((text) => text !== '');
}

function slides(presentation: XmlElement): FormatPage[] {
  return kids(presentation, 'page').map((page, i) => {
    const blocks: Block[] = [];
    for (const frame of kids(page)) {
      const cls = attr(frame, 'class');
      const box = find(frame, 'text-box');
      if (cls === 'title' && box) {
        const s = kids(box, 'p').flatMap((p) => spans(p));
        if (!isBlank(s)) blocks.push({ kind: 'heading', level: 1, spans: s });
      } else if (cls === 'outline' && box) {
        const items: ListItem[] = [];
        for (const list of kids(box, 'list')) listItems(list, 0, items, false);
        if (items.length > 0) blocks.push({ kind: 'list', items });
        textBlocks({ ...box, children: kids(box).filter((k) => k.local !== 'list') }, blocks);
      } else if (frame.local === 'frame' || frame.local === 'custom-shape' || frame.local === 'g') textBlocks(frame, blocks);
    }
    const notes = slideNotes(page);
    return { blocks, slide: i + 1, ...(notes.length > 0 ? { notes } : {}), ...(attr(page, 'name') === undefined ? {} : { label: attr(page, 'name')! }) };
  });
}

/**
 * Read an OpenDocument text, spreadsheet or presentation.
 *
 * @example
 * readOdf(odtBytes).pages[0].blocks
 */
export function readOdf(bytes: Uint8Array): FormatDocument {
  const zip = openZip(bytes);
  const content = readPart(zip, 'content.xml');
  const body = kid(content, 'body');
  if (!body) throw new SourceError('FOLIO_FORMAT_CORRUPT', 'the OpenDocument file has no content.xml body');
  const text = kid(body, 'text');
  if (text) {
    const footnotes: Notes = [];
    const blocks = textBlocks(text, [], 0, footnotes);
    return { format: 'odt', pages: [{ blocks, footnotes }], media: packageMedia(zip), ...packageTitle(zip) };
  }
  const spreadsheet = kid(body, 'spreadsheet');
  if (spreadsheet) return { format: 'ods', pages: sheets(spreadsheet, 500_000), ...packageTitle(zip) };
  const presentation = kid(body, 'presentation');
  if (presentation) return { format: 'odp', pages: slides(presentation), media: packageMedia(zip), ...packageTitle(zip) };
  throw new SourceError('FOLIO_FORMAT_CORRUPT', 'the OpenDocument body is neither text, spreadsheet nor presentation');
}
