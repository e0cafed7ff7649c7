/**
 * Structure of an aligned table beyond its one-line cells: cells wrapped onto several lines
 * (a long stub label over three lines) joined back into one row, group headers spanning the
 * sub-columns under them (`colspan`), and header cells with nothing under them reaching down
 * through the header rows (`rowspan`).
 */
import { FIGURE, ROW_SPANNED, SPANNED } from './table-html.ts';
import type { Line } from './types.ts';

// The figure test lives with the HTML writer, which needs it too; the table passes import it from here.
export { FIGURE };

/** Horizontal extent of the text put in one cell. */
export interface Extent {
  x0: number;
  x1: number;
}

/** A row of the grid: its cells, the extent of each filled cell's text, and its line(s). */
export interface GridRow {
  cells: string[];
  extents: (Extent | undefined)[];
  /** Its line, grown by the lines joined to it. */
  line: Line;
  /** Its first line as found (the key of anything recorded per line before joining). */
  readonly source: Line;
}

const filled = (c: string | undefined): boolean => c !== undefined && c !== '' && c !== SPANNED && c !== ROW_SPANNED;

/**
 * Join lines that continue the row above: where the table's rows are set apart by more space
 * than the lines inside a cell, a line much closer to the one above than rows are to each
 * other, filling fewer cells, each under a filled cell and none a figure, is that row's cells
 * carrying on. Tables set with no space between rows are left as they are (nothing to tell by).
 *
 * @example
 * joinWrappedRows(rows) // 'Manufacturing' + 'of machinery' → 'Manufacturing of machinery'
 */
export function joinWrappedRows(rows: readonly GridRow[]): GridRow[] {
  const gaps: number[] = [];
  for (let i = 1; i < rows.length; i++) {
    const [a, b] = [rows[i - 1]!, rows[i]!];
    if (a.cells.filter(filled).length >= 2 && b.cells.filter(filled).length >= 2) gaps.push(b.line.top - a.line.bottom);
  }
  if (gaps.length < 2) return [...rows];
  gaps.sort((p, q) => p - q);
  // Two groups of gaps show between any two lines, including a wrapped cell's one-cell lines; in a
  // table of figures the wider gaps set groups of rows apart instead, so only tables of words look.
  const cells = rows.flatMap((r) => r.cells.filter(filled));
  const ofWords = cells.filter((c) => !FIGURE.test(c)).length >= 0.9 * cells.length;
  const every = rows.slice(1).map((row, i) => row.line.top - rows[i]!.line.bottom);
  const wider = ofWords
    ? widerGroup(
        every.sort((p, q) => p - q),
        rows[0]!.line.size,
      )
    : undefined;
  const grouped = wider !== undefined;
  const rowGap = wider ?? gaps[Math.floor(gaps.length / 2)]!;
  const out: GridRow[] = [];
  for (const row of rows) {
    const prev = out.at(-1);
    const gap = prev === undefined ? Number.POSITIVE_INFINITY : row.line.top - prev.line.bottom;
    const size = Math.min(row.line.size, prev?.line.size ?? row.line.size);
    const count = row.cells.filter(filled).length;
    // Prose cells wrapped in a table set with rows as tight as its lines: no space tells, the words do.
    const spaced = rowGap > 0.25 * size && gap < 0.5 * rowGap;
    if (
      prev !== undefined &&
      (spaced || (gap <= 1.25 * rowGap && continuesProse(prev, row))) &&
      count >= 1 &&
      // Where the gaps say lines and rows apart, every cell of a prose row may wrap at once.
      (count < Math.max(2, prev.cells.filter(filled).length) || (grouped && spaced && count <= prev.cells.filter(filled).length && holdsProse(prev))) &&
      row.cells.every((c, j) => !filled(c) || (filled(prev.cells[j]) && !FIGURE.test(c)))
    ) {
      prev.cells = prev.cells.map((c, j) => (filled(row.cells[j]) ? joinCellLines(c, row.cells[j] as string) : c));
      prev.extents = prev.extents.map((e, j) => {
        const f = row.extents[j];
        return e === undefined || f === undefined ? (e ?? f) : { x0: Math.min(e.x0, f.x0), x1: Math.max(e.x1, f.x1) };
      });
      prev.line = { ...prev.line, bottom: row.line.bottom, text: `${prev.line.text} ${row.line.text}` };
      continue;
    }
    out.push({ cells: [...row.cells], extents: [...row.extents], line: row.line, source: row.source });
  }
  return out;
}

/** A cell's next line after its last: a word broken at a hyphen (`heavy-` over `duty`) closes up. */
function joinCellLines(above: string, below: string): string {
  return /\p{L}-$/u.test(above) && LOWER_START.test(below) ? `${above}${below}` : `${above} ${below}`;
}

/**
 * Where the gaps between all lines of a table (`every`, sorted) fall in two clear groups with two
 * or more in the upper one (cells wrapped onto several lines outnumber the rows): the smallest gap
 * of the upper group, the space that sets rows apart; undefined when there are no such groups.
 */
function widerGroup(every: readonly number[], size: number): number | undefined {
  let at = -1;
  let best = 0;
  for (let i = 0; i + 2 < every.length; i++) {
    const [lo, hi] = [Math.max(every[i]!, 0.05 * size), every[i + 1]!];
    if (hi - lo >= 0.2 * size && hi / lo > best) [at, best] = [i, hi / lo];
  }
  return at >= 0 && best >= 2.2 ? every[at + 1]! : undefined;
}

/** A row with a cell of prose past its first column (four words or more): its cells may wrap together. */
function holdsProse(row: GridRow): boolean {
  return row.cells.some((c, j) => j > 0 && filled(c) && c.split(/\s+/).length >= 4);
}

/** Text that starts in lower case: words carried on from the line above. */
export const LOWER_START = /^\p{Ll}/u;
const SENTENCE_END = /[.!?:;]$/;

/**
 * Whether each filled cell of `row` reads on from the cell above it: it starts in lower case, and the
 * cell above holds several words and does not end a sentence (`Emissions of 10 tons per year or` over
 * `more of any one air toxic`). Single-word cells (`yes`, `kg`) never count as prose.
 */
function continuesProse(prev: GridRow, row: GridRow): boolean {
  return row.cells.every((c, j) => {
    if (!filled(c)) return true;
    const above = prev.cells[j];
    return LOWER_START.test(c) && filled(above) && (above as string).split(/\s+/).length >= 3 && !SENTENCE_END.test(above as string);
  });
}

/**
 * Rows before the body: the body starts at the first row after the first that names a stub
 * (sub-headers such as years look like figures, so figures do not tell).
 */
export function headerRowCount(cells: readonly (readonly string[])[]): number {
  for (let r = 1; r < cells.length; r++) if (filled(cells[r]![0])) return r;
  return 0;
}

/**
 * Group headers over sub-columns: in a header row above another header row, an empty cell
 * over a sub-header belongs to the nearer (by text centre) of the filled cells on either side
 * of it that themselves have a sub-header under them; a header with none under it (`Total`
 * reaching down) takes no sub-columns.
 */
export function spanGroupHeaders(rows: GridRow[], head = headerRowCount(rows.map((r) => r.cells))): void {
  for (let r = 0; r < head && r < rows.length - 1; r++) {
    const { cells, extents } = rows[r]!;
    // Under a lone header row (group labels over value columns, their sub-headers set sideways
    // or left out) the body's columns stand in for sub-headers, where they hold figures.
    const last = head === 1;
    const body = rows.slice(head);
    const figures = (j: number): boolean => {
      const values = body.map((g) => g.cells[j]).filter(filled);
      return values.length > 0 && values.filter((v) => FIGURE.test(v!)).length >= 0.6 * values.length;
    };
    // The sub-header of a column: the first header row below that fills it; under the last
    // header row (or where the sub-headers are set sideways and read as none) the body's column,
    // where it holds figures.
    // (Not in the last of several header rows: its empty cells sit under cells reaching down.)
    const noSubHeaders = r + 1 < head && rows.slice(r + 1, head).every((g) => !g.cells.some((c, k) => k > 0 && filled(c) && figures(k)));
    const bodyColumn = (j: number): Extent | undefined => (figures(j) ? body.find((g) => filled(g.cells[j]))?.extents[j] : undefined);
    const under = (j: number): Extent | undefined =>
      last ? bodyColumn(j) : (rows.slice(r + 1, head).find((g) => filled(g.cells[j]))?.extents[j] ?? (noSubHeaders ? bodyColumn(j) : undefined));
    const centre = (c: number): number => ((extents[c]?.x0 ?? 0) + (extents[c]?.x1 ?? 0)) / 2;
    const owners = cells.map((c, j) => j > 0 && filled(c) && under(j) !== undefined && extents[j] !== undefined);
    // A group label reaches over the columns within half its width and most of a column's pitch
    // of its centre: a header wrapped onto a second line (`Distance` over `(mi)`) takes no others.
    const subs = cells.map((_, j) => under(j)).filter((e): e is Extent => e !== undefined);
    const steps = subs
      .slice(1)
      .map((e, k) => (e.x0 + e.x1) / 2 - (subs[k]!.x0 + subs[k]!.x1) / 2)
      .sort((a, b) => a - b);
    const pitch = steps[Math.floor(steps.length / 2)] ?? 0;
    const reach = (c: number): number => ((extents[c]?.x1 ?? 0) - (extents[c]?.x0 ?? 0)) / 2 + 0.75 * pitch;
    for (let j = 1; j < cells.length; j++) {
      const sub = under(j);
      if (cells[j] !== '' || sub === undefined) continue;
      const at = (sub.x0 + sub.x1) / 2;
      let left = j - 1;
      while (left > 0 && cells[left] === SPANNED) left--;
      let right = j + 1;
      while (right < cells.length && cells[right] === '' && under(right) !== undefined) right++;
      const near = (o: number): number => (Math.abs(at - centre(o)) <= reach(o) ? Math.abs(at - centre(o)) : Number.POSITIVE_INFINITY);
      const l = left > 0 && owners[left] ? near(left) : Number.POSITIVE_INFINITY;
      const rr = right < cells.length && owners[right] ? near(right) : Number.POSITIVE_INFINITY;
      if (l === Number.POSITIVE_INFINITY && rr === Number.POSITIVE_INFINITY) continue;
      if (l <= rr) {
        cells[j] = SPANNED;
      } else {
        // The owner is to the right: it moves left to the first of its columns.
        cells[j] = cells[right]!;
        extents[j] = extents[right];
        owners[j] = true;
        for (let k = j + 1; k <= right; k++) cells[k] = SPANNED;
        owners[right] = false;
      }
    }
  }
}

/**
 * Header cells with nothing under them in the header rows reach down to the body (`Total`
 * over a column with no sub-headers, the stub's header over the header rows).
 */
export function spanHeaderRows(cells: string[][], head = headerRowCount(cells)): string[][] {
  if (head < 2) return cells;
  const out = cells.map((row) => [...row]);
  const width = Math.max(...out.map((row) => row.length));
  // Columns each reaching cell holds, by its first column: HTML's rowspan holds every column of
  // a colspan, so a cell reaches down only where all of them are empty in the row below.
  let reaching = new Map<number, number>();
  for (let r = 1; r < head; r++) {
    const next = new Map<number, number>();
    for (let c = 0; c < width; ) {
      const above = out[r - 1]![c];
      let w = reaching.get(c) ?? 0;
      if (filled(above)) for (w = 1; out[r - 1]![c + w] === SPANNED; w++);
      if (w === 0) {
        c++;
        continue;
      }
      if (out[r]!.slice(c, c + w).every((cell) => cell === '') && c + w <= out[r]!.length) {
        for (let k = c; k < c + w; k++) out[r]![k] = ROW_SPANNED;
        next.set(c, w);
      }
      c += w;
    }
    reaching = next;
  }
  return out;
}
