import type { TableData } from '../../core/types.ts';

/** A cell as read from HTML or a pipe table, before spans are expanded. */
export interface SourceCell {
  readonly text: string;
  readonly rowspan: number;
  readonly colspan: number;
  readonly header: boolean;
}

export interface SourceRow {
  readonly cells: readonly SourceCell[];
  /** Inside `<thead>` (or the GFM header row). */
  readonly head: boolean;
}

// Spans past these are OCR noise (`colspan="99999"`) and would blow up the grid.
const maxColspan = 64;
const maxColumns = 512;

/**
 * Expand spans into a grid, find header rows and write the three renderings.
 *
 * @example
 * buildTable({ rows: [{ head: true, cells: [{ text: 'A', rowspan: 1, colspan: 1, header: true }] }] }).cells // [['A']]
 */
export function buildTable({ rows, issues = [] }: Readonly<{ rows: readonly SourceRow[]; issues?: readonly string[] }>): TableData {
  const grid: string[][] = [];
  const problems = [...issues];
  const widths: number[] = [];
  rows.forEach((row, r) => {
    grid[r] ??= [];
    let column = 0;
    for (const cell of row.cells) {
      const target = grid[r]!;
      while (target[column] !== undefined) column++;
      const colspan = clampSpan(cell.colspan, maxColspan);
      // A rowspan never reaches past the last row (HTML says the same for rowspan="0").
      const rowspan = Math.min(clampSpan(cell.rowspan, rows.length), rows.length - r);
      for (let dr = 0; dr < rowspan; dr++) {
        const line = (grid[r + dr] ??= []);
        for (let dc = 0; dc < colspan && column + dc < maxColumns; dc++) line[column + dc] = cell.text;
      }
      column += colspan;
    }
    widths.push(grid[r]!.length);
  });
  const columns = Math.max(0, ...widths, ...grid.map((line) => line.length));
  if (new Set(widths).size > 1) problems.push(`ragged rows: widths ${summariseWidths(widths)}`);
  const cells = grid.map((line) => Array.from({ length: columns }, (_v, i) => line[i] ?? ''));

  let headerRows = 0;
  while (headerRows < rows.length && isMarkupHeader(rows[headerRows]!)) headerRows++;
  let headerGuessed = false;
  if (headerRows === 0 && cells.length > 1) {
    // A grouped header (a cell spanning columns in the first row) spans as many rows as its tallest cell.
    const first = rows[0]!.cells;
    const grouped = first.some((cell) => cell.colspan > 1) ? Math.max(1, ...first.map((cell) => Math.min(cell.rowspan, rows.length - 1))) : 0;
    if (grouped > 0 && grouped < cells.length) headerRows = grouped;
    else if (looksLikeHeader(cells[0]!, cells.slice(1))) headerRows = 1;
    headerGuessed = headerRows > 0;
  }
  const header = columnHeaders(cells, headerRows);
  const body = cells.slice(headerRows);
  const rowsText = body.map((line) => rowText(line, header)).filter((line) => line !== '');
  const simple = rows.every((row) => row.cells.every((cell) => cell.rowspan <= 1 && cell.colspan <= 1));
  const data: {
    cells: string[][];
    headerRows: number;
    html: string;
    markdown?: string;
    rowsText: string[];
    headerGuessed?: boolean;
    issues?: string[];
  } = { cells, headerRows, html: tableHtml(rows, headerRows), rowsText };
  if (simple && headerRows === 1 && columns > 0) data.markdown = tableMarkdown(cells);
  if (headerGuessed) data.headerGuessed = true;
  if (problems.length > 0) data.issues = problems;
  return data;
}

/** The label of each column: its header cells joined, repeats from spans dropped. */
export function columnHeaders(cells: readonly (readonly string[])[], headerRows: number): string[] {
  const columns = cells[0]?.length ?? 0;
  return Array.from({ length: columns }, (_v, c) => {
    const parts: string[] = [];
    for (let r = 0; r < headerRows; r++) {
      const text = cells[r]?.[c] ?? '';
      if (text !== '' && parts[parts.length - 1] !== text) parts.push(text);
    }
    return parts.join(' ');
  });
}

/** `Header: value; Header: value`, empty cells left out; plain `value; value` without a header. */
export function rowText(line: readonly string[], header: readonly string[]): string {
  const parts: string[] = [];
  line.forEach((value, c) => {
    if (value === '') return;
    const name = header[c] ?? '';
    parts.push(name !== '' && name !== value ? `${name}: ${value}` : value);
  });
  return parts.join('; ');
}

/** Re-render a grid (no spans) as clean HTML, header rows as `<th>`. */
export function gridHtml(cells: readonly (readonly string[])[], headerRows: number): string {
  return tableHtml(
    cells.map((line, r) => ({
      head: r < headerRows,
      cells: line.map((text) => ({ text, rowspan: 1, colspan: 1, header: r < headerRows })),
    })),
    headerRows,
  );
}

function tableHtml(rows: readonly SourceRow[], headerRows: number): string {
  const parts = ['<table>'];
  rows.forEach((row, r) => {
    if (r === 0 && headerRows > 0) parts.push('<thead>');
    if (r === headerRows && headerRows > 0) parts.push('<tbody>');
    parts.push('<tr>');
    for (const cell of row.cells) {
      const tag = cell.header || r < headerRows ? 'th' : 'td';
      const spans = (cell.rowspan > 1 ? ` rowspan="${cell.rowspan}"` : '') + (cell.colspan > 1 ? ` colspan="${cell.colspan}"` : '');
      parts.push(`<${tag}${spans}>${escapeHtml(cell.text)}</${tag}>`);
    }
    parts.push('</tr>');
    if (r === headerRows - 1) parts.push('</thead>');
  });
  if (headerRows > 0 && rows.length > headerRows) parts.push('</tbody>');
  parts.push('</table>');
  return parts.join('');
}

/**
 * A pipe table of the expanded grid, first row as the header: lossy for spanned or multi-row
 * headers (a spanning cell repeats), which is how docling writes them.
 */
export function gridMarkdown(cells: readonly (readonly string[])[]): string {
  return tableMarkdown(cells);
}

function tableMarkdown(cells: readonly (readonly string[])[]): string {
  const line = (values: readonly string[]): string => `| ${values.map(escapePipe).join(' | ')} |`;
  const [head, ...body] = cells;
  return [line(head ?? []), line((head ?? []).map(() => '---')), ...body.map(line)].join('\n');
}

function isMarkupHeader(row: SourceRow): boolean {
  return row.head || (row.cells.length > 0 && row.cells.every((cell) => cell.header));
}

// A first row of short, non-numeric labels over rows holding numbers reads as a header.
function looksLikeHeader(first: readonly string[], rest: readonly (readonly string[])[]): boolean {
  if (first.some((text) => text === '' || isNumeric(text) || text.length > 60)) return false;
  return rest.some((line) => line.some(isNumeric));
}

function isNumeric(text: string): boolean {
  return /^[-+−]?[$€£¥]?\s?[\d.,]+\s?%?$/u.test(text.trim());
}

function clampSpan(value: number, max: number): number {
  if (!Number.isFinite(value) || value < 1) return 1;
  return Math.min(Math.floor(value), Math.max(1, max));
}

function summariseWidths(widths: readonly number[]): string {
  const unique = [...new Set(widths)];
  return unique.slice(0, 6).join(', ') + (unique.length > 6 ? ', …' : '');
}

export function escapeHtml(text: string): string {
  return text.replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;');
}

function escapePipe(text: string): string {
  return text.replace(/\|/gu, '\\|').replace(/\n/gu, ' ');
}
