/**
 * CSV and TSV: the delimiter sniffed from the first lines (comma, semicolon, tab, pipe), RFC 4180
 * quoting, ragged rows padded to the widest, the first row as the header.
 */
import { SourceError } from '../../core/errors.ts';
import type { TableCell } from './blocks.ts';
import { cellRange } from './cell-range.ts';
import type { FormatDocument } from './types.ts';

const CANDIDATES = [',', ';', '\t', '|'] as const;

/** The most common RFC 4180 shapes, bounded so a one-line 100 MB file cannot stall the sniff. */
export function sniffDelimiter(text: string): string {
  const sample = text
    .slice(0, 64 * 1024)
    .split(/\r?\n/)
    .slice(0, 20)
    .filter((l) => l.trim() !== '');
  let best: string = ',';
  let bestScore = -1;
  for (const delimiter of CANDIDATES) {
    const counts = sample.map((line) => parseRows(line, delimiter, 1)[0]?.length ?? 1);
    if (counts.length === 0) continue;
    const columns = Math.min(...counts);
    if (columns < 2) continue;
    // Consistent column counts across lines beat a delimiter that merely appears often.
    const same = counts.filter((c) => c === counts[0]).length / counts.length;
    const score = same * 10 + Math.min(columns, 50) / 50;
    if (score > bestScore) {
      bestScore = score;
      best = delimiter;
    }
  }
  return best;
}

/** Rows of fields; quotes as RFC 4180 has them (doubled quotes inside quoted fields). */
export function parseRows(text: string, delimiter: string, maxRows = Number.POSITIVE_INFINITY): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const n = text.length;
  while (i < n && rows.length < maxRows) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += c;
      i++;
      continue;
    }
    if (c === '"' && field.trim() === '') {
      quoted = true;
      field = '';
    } else if (c === delimiter) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      if (c === '\r' && text[i + 1] === '\n') i++;
    } else field += c;
    i++;
  }
  if ((field !== '' || row.length > 0) && rows.length < maxRows) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

export interface CsvOptions {
  /**
   * Most cells read; a larger file fails with a clear error rather than exhausting memory.
   * @default 500000 (a sheet that size takes about 30 s and 1 GB through parse and chunking)
   */
  readonly maxCells?: number;
}

/**
 * Read CSV or TSV bytes as one table.
 *
 * @example
 * readCsv(new TextEncoder().encode('a,b\n1,2\n')).pages[0].blocks[0] // { kind: 'table', rows: … }
 */
export function readCsv(bytes: Uint8Array, options: Readonly<CsvOptions> = {}): FormatDocument {
  const { maxCells = 500_000 } = options;
  const text = new TextDecoder('utf-8').decode(bytes).replace(/^\ufeff/, '');
  const delimiter = sniffDelimiter(text);
  const rows = parseRows(text, delimiter).filter((row) => row.some((cell) => cell.trim() !== ''));
  const width = Math.max(0, ...rows.map((r) => r.length));
  if (rows.length * width > maxCells) {
    throw new SourceError('FOLIO_FORMAT_TOO_LARGE', `the table has ${rows.length} rows of ${width} columns, more than ${maxCells} cells`);
  }
  const table: TableCell[][] = rows.map((row, r) => Array.from({ length: width }, (_, c) => ({ text: (row[c] ?? '').trim(), header: r === 0 })));
  // The cells as a spreadsheet opening the file shows them (blank lines dropped above).
  const range = cellRange(0, 0, Math.max(0, table.length - 1), Math.max(0, width - 1));
  return { format: 'csv', pages: [{ blocks: table.length === 0 ? [] : [{ kind: 'table', rows: table, range }] }] };
}
