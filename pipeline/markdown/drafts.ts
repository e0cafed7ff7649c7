import type { TableData } from '../../core/types.ts';
import type { Draft } from './attach.ts';
import { readHtml } from './html.ts';
import { buildTable, columnHeaders } from './table.ts';

/** Drafts for an HTML block: its tables, images and runs of text, in order. */
export function htmlDrafts(html: string, at: Readonly<{ start: number; end: number }>, fastPath = true): Draft[] {
  return readHtml(html, { fastPath }).map((part): Draft => {
    if (part.type === 'table') return tableDraft(buildTable({ rows: part.rows, issues: part.issues }), at);
    if (part.type === 'image') return { kind: 'figure', text: part.alt, markdown: part.alt === '' ? '<!-- image -->' : `![${part.alt}]()`, ...at };
    return { kind: 'paragraph', text: part.text, markdown: part.text, ...at };
  });
}

export function tableDraft(table: TableData, at: Readonly<{ start: number; end: number }>): Draft {
  return { kind: 'table', text: tableText(table), markdown: table.html, table, start: at.start, end: at.end };
}

/**
 * Element text of a table: the column headers on one line, then one line per body row.
 *
 * @example
 * tableText(element.table) // 'Name | Age\nName: Ada; Age: 36'
 */
export function tableText(table: TableData): string {
  const header = columnHeaders(table.cells, table.headerRows).filter((name) => name !== '');
  return [header.length > 0 ? header.join(' | ') : '', ...table.rowsText].filter((line) => line !== '').join('\n');
}
