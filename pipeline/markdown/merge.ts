import type { BBox, Element, TableData } from '../../core/types.ts';
import { tableText } from './drafts.ts';
import { assignHeadingPaths } from './headings.ts';
import { columnHeaders, escapeHtml, rowText } from './table.ts';

// Page furniture and notes sit between a table and its continuation without breaking it.
const passThrough = new Set<Element['kind']>(['pageHeader', 'pageFooter', 'footnote']);

/**
 * Flatten pages into document order, merging a table that continues on the next page: the last
 * table of page n and the first block of page n+1 have the same number of columns, and page n+1
 * either has no header or repeats page n's. The merged table lists both pages and both boxes.
 * Heading paths are recomputed across pages.
 *
 * @example
 * mergeContinuedTables([page1Elements, page2Elements]).filter((e) => e.kind === 'table')[0]?.pages // [1, 2]
 */
export function mergeContinuedTables(pages: readonly (readonly Element[])[]): Element[] {
  const out: Element[] = [];
  for (const page of pages) {
    const firstContent = page.findIndex((element) => !passThrough.has(element.kind));
    const first = page[firstContent];
    const previousIndex = findLastIndex(out, (element) => !passThrough.has(element.kind));
    const previous = out[previousIndex];
    if (first?.kind === 'table' && previous?.kind === 'table' && continues(previous, first)) {
      out[previousIndex] = mergeTables(previous, first);
      out.push(...page.filter((_element, i) => i !== firstContent));
    } else out.push(...page);
  }
  return assignHeadingPaths(out);
}

/** Whether `next` (first on its page) continues `table` (last on the page before). */
function continues(table: Element, next: Element): boolean {
  const a = table.table;
  const b = next.table;
  if (!a || !b) return false;
  const lastPage = table.pages[table.pages.length - 1] ?? table.pageNumber;
  if (next.pageNumber !== lastPage + 1) return false;
  const width = a.cells[0]?.length ?? 0;
  if (width === 0 || width !== (b.cells[0]?.length ?? 0)) return false;
  if (b.headerRows === 0 || b.headerGuessed) return true;
  return repeatsHeader(a, b);
}

function repeatsHeader(a: TableData, b: TableData): boolean {
  if (a.headerRows !== b.headerRows) return false;
  for (let r = 0; r < a.headerRows; r++) {
    const left = a.cells[r] ?? [];
    const right = b.cells[r] ?? [];
    if (left.some((text, c) => normalise(text) !== normalise(right[c] ?? ''))) return false;
  }
  return true;
}

function mergeTables(table: Element, next: Element): Element {
  const a = table.table!;
  const b = next.table!;
  // A repeated header is dropped; with no header (or a guessed one) every row is a body row.
  const skip = b.headerRows > 0 && repeatsHeader(a, b) ? b.headerRows : 0;
  const added = b.cells.slice(skip);
  const header = columnHeaders(a.cells, a.headerRows);
  const issues = [...(a.issues ?? []), ...(b.issues ?? [])];
  const data: TableData = {
    cells: [...a.cells, ...added],
    headerRows: a.headerRows,
    // Keep the first page's HTML as written (spans and all) and append the continuation's rows.
    html: appendRows(a.html, added),
    ...(a.markdown !== undefined && b.markdown !== undefined ? { markdown: [a.markdown, ...added.map(pipeRow)].join('\n') } : {}),
    rowsText: [...a.rowsText, ...added.map((line) => rowText(line, header)).filter((line) => line !== '')],
    ...(a.headerGuessed ? { headerGuessed: true } : {}),
    ...(issues.length > 0 ? { issues } : {}),
  };
  const boxes = [...boxesOf(table), ...boxesOf(next)];
  return {
    ...table,
    text: tableText(data),
    markdown: data.html,
    table: data,
    pages: [...new Set([...table.pages, ...next.pages])],
    ...(boxes.length > 0 ? { bboxes: boxes } : {}),
  };
}

function appendRows(html: string, rows: readonly (readonly string[])[]): string {
  const body = rows.map((line) => `<tr>${line.map((text) => `<td>${escapeHtml(text)}</td>`).join('')}</tr>`).join('');
  const closing = html.endsWith('</tbody></table>') ? '</tbody></table>' : '</table>';
  const open = html.slice(0, html.length - closing.length);
  // A header-only first part gets a body opened for the continuation.
  const needsBody = closing === '</table>' && open.endsWith('</thead>');
  return needsBody ? `${open}<tbody>${body}</tbody></table>` : `${open}${body}${closing}`;
}

function pipeRow(line: readonly string[]): string {
  return `| ${line.map((text) => text.replace(/\|/gu, '\\|')).join(' | ')} |`;
}

function boxesOf(element: Element): { page: number; bbox: BBox }[] {
  if (element.bboxes) return [...element.bboxes];
  return element.bbox ? [{ page: element.pageNumber, bbox: element.bbox }] : [];
}

function normalise(text: string): string {
  return text.replace(/\s+/gu, ' ').trim().toLowerCase();
}

function findLastIndex<T>(list: readonly T[], test: (value: T) => boolean): number {
  for (let i = list.length - 1; i >= 0; i--) if (test(list[i]!)) return i;
  return -1;
}
