/**
 * Rows of a table found by alignment, tidied: the header's multi-line cells (`to air` over
 * `kg/year`) become one row of cells, a caption row (`Table 7.5 …`) ends a table instead of
 * gluing two stacked tables into one, a short centred line over the rows is a spanning header,
 * and dot leaders are not cell text.
 */
import type { Fragment, Line } from './types.ts';

/** A row of one cell starting like a table caption. */
const CAPTION = /^(?:table|tab\.|tabelle|tableau|tabla)\s*[\dIVX]+(?:[.:-]\s*\d+)*\b/i;

/** Whether a row is a table caption: one filled cell that starts `Table N`. */
export function isCaptionRow(cells: readonly string[]): boolean {
  const filled = cells.filter((c) => c !== '');
  return filled.length === 1 && CAPTION.test(filled[0]!);
}

/** Every filled cell of `lower` sits under a filled cell of `upper`, and `lower` fills at least one. */
const SPANNED = '\u0000';
const under = (lower: readonly string[], upper: readonly string[]): boolean =>
  lower.some((c) => c !== '' && c !== SPANNED) &&
  // Spans must agree: a cell spanning columns merges only with one spanning the same.
  lower.every((c, j) => (c === SPANNED) === (upper[j] === SPANNED)) &&
  lower.every((c, j) => c === '' || c === SPANNED || ((upper[j] ?? '') !== '' && upper[j] !== SPANNED));

/**
 * Merge wrapped lines: the header's, and a stub cell's second line. The header is the leading rows whose first (stub) column is
 * empty; two of them merge when the lower one fills only columns the upper one fills and
 * sits as close as lines of one paragraph (gap under half the type size), so each column's
 * cell is one cell of several lines.
 *
 * @example
 * mergeHeaderLines([['', 'to air'], ['', 'kg/year'], ['CO2', '100']], lines) // [['', 'to air kg/year'], ['CO2', '100']]
 */
export function mergeHeaderLines(cells: string[][], lines: readonly Line[]): { cells: string[][]; lines: Line[] } {
  const outCells: string[][] = [];
  const outLines: Line[] = [];
  let inHeader = true;
  for (let i = 0; i < cells.length; i++) {
    const row = cells[i]!;
    const line = lines[i]!;
    // The first row may name the stub column (`Characteristic`); the header ends at the next
    // row with a stub.
    if (row[0] !== '' && i > 0) inHeader = false;
    const prevRow = outCells[outCells.length - 1];
    const prevLine = outLines[outLines.length - 1];
    if (
      inHeader &&
      prevRow !== undefined &&
      prevLine !== undefined &&
      row[0] === '' &&
      under(row.slice(1), prevRow.slice(1)) &&
      line.top - prevLine.bottom < 0.5 * Math.min(line.size, prevLine.size)
    ) {
      outCells[outCells.length - 1] = prevRow.map((c, j) => (row[j] === '' || row[j] === SPANNED ? c : `${c} ${row[j]}`));
      outLines[outLines.length - 1] = { ...prevLine, bottom: line.bottom, text: `${prevLine.text} ${line.text}` };
      continue;
    }
    // A stub cell wrapped onto a second line (`American Indian/` over `Alaska Native`): the line
    // holds the stub alone, sits tight under the row, and reads on from it.
    const stubOnly = row[0] !== '' && row.every((c, j) => j === 0 || c === '');
    if (
      !inHeader &&
      stubOnly &&
      prevRow !== undefined &&
      prevLine !== undefined &&
      (prevRow[0] ?? '') !== '' &&
      line.top - prevLine.bottom < 0.5 * Math.min(line.size, prevLine.size) &&
      (/[/,\-–(&]$/u.test(prevRow[0]!) || /^\p{Ll}/u.test(row[0]!))
    ) {
      outCells[outCells.length - 1] = [`${prevRow[0]} ${row[0]}`, ...prevRow.slice(1)];
      outLines[outLines.length - 1] = { ...prevLine, bottom: line.bottom };
      continue;
    }
    outCells.push([...row]);
    outLines.push(line);
  }
  return { cells: outCells, lines: outLines };
}

/** Dot leaders (`Total ........ 12`) guide the eye to the next cell; they are not its text. */
const LEADERS = /(?:\s*[.·…_](?:\s?[.·…_]){2,}\s*)/gu;

export function withoutLeaders(text: string): string {
  return text.includes('..') || text.includes('. .') || text.includes('…') || text.includes('__') ? text.replace(LEADERS, ' ').trim() : text;
}

/** A short line over the table's rows, inside their width and clear of its left edge: a spanning header. */
export function spanningHeader(line: Line, body: readonly Line[]): boolean {
  if (line.fragments.length !== 1 || line.text.length > 60 || isCaptionRow([line.text]) || body.length === 0) return false;
  const first = body[0] as Line;
  const x0 = Math.min(...body.map((l) => l.x0));
  const x1 = Math.max(...body.map((l) => l.x1));
  const width = x1 - x0;
  return (
    first.top - line.bottom <= 1.5 * Math.max(line.size, first.size) &&
    line.x0 > x0 + 0.1 * width &&
    line.x1 <= x1 + 0.05 * width &&
    line.x1 - line.x0 < 0.7 * width
  );
}

/**
 * A row of group headers set apart above the table (room left for sub-headers drawn or set
 * sideways): two or more short cells, all over the table's columns right of its stub, within
 * five lines' space of its first row.
 */
export function groupHeaderRow(line: Line, body: readonly Line[]): boolean {
  if (line.fragments.length < 2 || body.length === 0 || line.fragments.some((f) => f.text.length > 30 || isCaptionRow([f.text]))) return false;
  const first = body[0] as Line;
  const x0 = Math.min(...body.map((l) => l.x0));
  const x1 = Math.max(...body.map((l) => l.x1));
  const width = x1 - x0;
  return first.top - line.bottom <= 5 * Math.max(line.size, first.size) && line.x0 > x0 + 0.15 * width && line.x1 <= x1 + 0.05 * width;
}

const words = (text: string): number => text.trim().split(/\s+/).length;

/**
 * A row of a table of words: a short term (one to three words, with letters; a list number or a
 * reference key is no term) set apart from one or two cells of prose (four words or more) — the
 * rows of a definitions table, which two text columns never make (both columns run long).
 */
export function termRow(row: Line): boolean {
  const [term, ...rest] = row.fragments;
  if (term === undefined || rest.length < 1 || rest.length > 2) return false;
  if (words(term.text) > 3 || term.text.length > 25 || !/\p{L}{3}/u.test(term.text) || /[.:;]$/.test(term.text)) return false;
  return rest.every((f) => words(f.text) >= 4) && (rest[0] as Fragment).x0 - term.x1 > 0.8 * row.size;
}
