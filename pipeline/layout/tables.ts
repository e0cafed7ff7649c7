/**
 * Simple tables from aligned text: consecutive lines that split into two or more fragments
 * (cells) at consistent column positions: the common born-digital grid. Tables whose cells
 * are drawn with rules are read from the rules first (`ruled-tables.ts`); this is the rest.
 */

import { toLines } from './order.ts';
import type { PageRules } from './rules.ts';
import { gridOf } from './table-grid.ts';
import { groupHeaderRow, isCaptionRow, spanningHeader, termRow } from './table-rows.ts';
import { LOWER_START } from './table-spans.ts';
import type { Fragment, Line } from './types.ts';

/**
 * Find table runs among a region's lines (top to bottom). Returns `[start, end)` line index
 * ranges and their cells. A two-"column" run of long prose fragments is two text columns
 * that XY-cut could not separate, not a table, so it is refused.
 */
export function findTables(lines: readonly Line[]): { start: number; end: number; cells: string[][] }[] {
  const found: { start: number; end: number; cells: string[][] }[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as Line;
    if (line.fragments.length < 2) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < lines.length) {
      const next = lines[end] as Line;
      const prev = lines[end - 1] as Line;
      // Rows of a table are close; a wide gap ends it.
      if (next.top - prev.bottom > 2.5 * Math.max(prev.size, next.size)) break;
      if (next.fragments.length >= 2) {
        end++;
        continue;
      }
      // A one-cell line (a wrapped cell, a section row) stays if the grid goes on after it.
      const after = lines[end + 1];
      if (after !== undefined && after.fragments.length >= 2 && after.top - next.bottom <= 2.5 * next.size) {
        end += 2;
        continue;
      }
      break;
    }
    end = i + beforeCaption(lines.slice(i, end));
    const cells = gridOf(lines.slice(i, end));
    if (cells !== undefined) {
      found.push({ start: i, end, cells });
      i = end;
    } else {
      i++;
    }
  }
  return found;
}

/** A row that looks like a table row: three or more short cells. */
function tabular(row: Line): boolean {
  if (row.fragments.length < 3) return false;
  const mean = row.fragments.reduce((sum, f) => sum + f.text.length, 0) / row.fragments.length;
  return mean <= 30;
}

/** Rows handed to grid building per page pass, beyond four per row of the page (see `scanPage`). */
const GRID_ROW_BUDGET = 1500;

/**
 * Tables across the whole page, found before reading order so a column gutter inside a table
 * cannot split it (XY-cut would read it column by column). A run of at least three rows of
 * three or more short cells, with the rows just above it that have two or more cells (headers),
 * becomes one stand-in fragment carrying the cells; the rest of the page is returned apart.
 */
export function findPageTables(fragments: readonly Fragment[], rules?: PageRules): { tables: Fragment[]; rest: Fragment[] } {
  const figures = scanPage(fragments, rules, tabular, () => true, false);
  // Tables of words (a term beside prose) are looked for apart, among what is left, so their rows
  // never bridge two tables of figures.
  const words = scanPage(figures.rest, rules, termRow, termsSetApart, true);
  return { tables: [...figures.tables, ...words.tables], rest: words.rest };
}

/**
 * One pass over the page: runs of rows that `isRow` accepts (with the lines between and above them
 * that tables carry), kept where `accept` takes the run's rows and they make a grid.
 */
function scanPage(
  fragments: readonly Fragment[],
  rules: PageRules | undefined,
  isRow: (row: Line) => boolean,
  accept: (run: readonly Line[]) => boolean,
  ofWords: boolean,
): { tables: Fragment[]; rest: Fragment[] } {
  const rows = toLines(fragments);
  const taken = new Set<Fragment>();
  const tables: Fragment[] = [];
  const close = (upper: Line, lower: Line): boolean => lower.top - upper.bottom <= 3 * Math.max(upper.size, lower.size);
  // A failed run is tried again from its next row, so a page of many short rows that make no
  // table (a map's labels, a newspaper's columns) costs rows² in grid building; past this many rows
  // tried the page is not a page of tables, and the rest of it is read as text.
  let budget = GRID_ROW_BUDGET + 4 * rows.length;
  let i = 0;
  while (i < rows.length && budget > 0) {
    if (!isRow(rows[i] as Line)) {
      i++;
      continue;
    }
    let last = i;
    let count = 1;
    // Up to three lines that are no table row may sit between rows (a section label, a wrapped
    // cell); lines set tight under the one above (a cell wrapped onto several lines) do not count.
    let between = 0;
    for (let j = i + 1; j < rows.length && between < 3 && close(rows[j - 1] as Line, rows[j] as Line); j++) {
      const row = rows[j] as Line;
      if (isRow(row)) {
        last = j;
        count++;
        between = 0;
      } else {
        // Lines that overlap the one above come from another column beside the table.
        const gap = row.top - (rows[j - 1] as Line).bottom;
        if (gap < -0.5 || gap >= 0.35 * row.size || !insideCells(row, rows[last] as Line)) between++;
      }
    }
    last = wrappedTail(rows, last);
    let start = i;
    while (start > 0 && start > i - 2 && (rows[start - 1] as Line).fragments.length >= 2 && close(rows[start - 1] as Line, rows[start] as Line)) start--;
    // A spanning header over some of the columns (`Design effect` centred over the values).
    if (start > 0 && spanningHeader(rows[start - 1] as Line, rows.slice(start, last + 1))) start--;
    else if (start > 0 && groupHeaderRow(rows[start - 1] as Line, rows.slice(start, last + 1))) start--;
    // A caption inside the run starts another table: this one ends before it.
    const cut = beforeCaption(rows.slice(start, last + 1));
    if (start + cut <= last) {
      last = start + cut - 1;
      count = rows.slice(i, last + 1).filter((r) => isRow(r)).length;
    }
    const slice = rows.slice(start, last + 1);
    const tried = count >= 3 && accept(rows.slice(i, last + 1));
    if (tried) budget -= slice.length;
    const cells = tried ? gridOf(slice, rules?.horizontal, ofWords) : undefined;
    if (cells === undefined) {
      i++;
      continue;
    }
    const members = slice.flatMap((row) => row.fragments);
    for (const f of members) taken.add(f);
    tables.push({
      text: '',
      x0: Math.min(...members.map((f) => f.x0)),
      x1: Math.max(...members.map((f) => f.x1)),
      top: Math.min(...members.map((f) => f.top)),
      bottom: Math.max(...members.map((f) => f.bottom)),
      y: (slice[0] as Line).y,
      size: (slice[0] as Line).size,
      font: (slice[0] as Line).font,
      table: cells,
    });
    i = last + 1;
  }
  return { tables, rest: taken.size === 0 ? [...fragments] : fragments.filter((f) => !taken.has(f)) };
}

/**
 * The last line of a table run once the lines set tight under its last row, inside that row's cells
 * but clear of its first and starting in lower case, are taken in: the row's cells wrapped onto more
 * lines. A note under a table starts under the stub column or runs across the cells, so it stays out.
 */
function wrappedTail(rows: readonly Line[], last: number): number {
  const anchor = rows[last] as Line;
  const stub = anchor.fragments[0];
  let tail = last;
  while (tail + 1 < rows.length) {
    const row = rows[tail + 1] as Line;
    const gap = row.top - (rows[tail] as Line).bottom;
    if (gap < -0.5 || gap >= 0.35 * row.size || !insideCells(row, anchor)) break;
    if (stub !== undefined && row.fragments.some((f) => f.x0 < stub.x1)) break;
    // Words carried on start in lower case; a capital starts a heading or another table beside.
    if (!row.fragments.every((f) => LOWER_START.test(f.text))) break;
    tail++;
  }
  return tail;
}

/**
 * Whether a run of term rows sets its rows apart: the gaps between its lines fall into the leading
 * inside a cell and wider gaps, each wider gap opening a term row, two or more of them. A narrow
 * column of margin notes beside running text (an address, a date received) sits on the text's own
 * leading, with no wider gaps.
 */
function termsSetApart(run: readonly Line[]): boolean {
  const gaps = run.slice(1).map((row, k) => row.top - (run[k] as Line).bottom);
  const inner = [...gaps].sort((p, q) => p - q)[Math.floor(gaps.length / 4)] ?? 0;
  const wide = Math.max(1.8 * inner, inner + 0.25 * (run[0] as Line).size);
  let apart = 0;
  for (let k = 1; k < run.length; k++) {
    if (gaps[k - 1]! < wide) continue;
    if (!termRow(run[k] as Line)) return false;
    apart++;
  }
  return apart >= 2;
}

/** Every fragment of `line` lies under one cell of `row`, clear of the next cell (a cell's text wrapped onto another line). */
function insideCells(line: Line, row: Line): boolean {
  return line.fragments.every((f) => {
    const k = row.fragments.findIndex((g) => Math.min(g.x1, f.x1) > Math.max(g.x0, f.x0));
    const next = row.fragments[k + 1];
    return k >= 0 && f.x0 >= (row.fragments[k - 1]?.x1 ?? Number.NEGATIVE_INFINITY) && (next === undefined || f.x1 < next.x0);
  });
}

/**
 * Lines before the next table starts, or all: a caption row after the first line (`Table N …`),
 * or the header rows coming again (stacked tables of one layout), with the one-cell title line
 * right above them.
 */
function beforeCaption(lines: readonly Line[]): number {
  // The header rows, and the first line whatever it holds (a spanning header over the columns).
  const header = new Set(
    lines
      .slice(0, 3)
      .filter((l, k) => l.fragments.length >= 2 || (k === 0 && /\p{L}/u.test(l.text)))
      .map((l) => l.text),
  );
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as Line;
    if (line.fragments.length === 1 && isCaptionRow([line.text])) return i;
    if (i >= 3 && header.has(line.text)) {
      let cut = i;
      while (cut > 1 && cut > i - 3 && (lines[cut - 1] as Line).fragments.length === 1) cut--;
      return cut;
    }
  }
  return lines.length;
}
