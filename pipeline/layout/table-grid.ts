/**
 * The grid of an aligned table: columns from the fullest rows, each line's fragments put in
 * them, wrapped lines joined, spanning header cells found (by alignment, and by the rules of a
 * booktabs table), then the header's wrapped lines merged. `tables.ts` finds the row runs.
 */
import { headerEnd, rulesBetweenRows, spanOverShortRules } from './booktabs.ts';
import type { Rule } from './rules.ts';
import { SPANNED } from './table-html.ts';
import { mergeHeaderLines, termRow, withoutLeaders } from './table-rows.ts';
import type { Extent, GridRow } from './table-spans.ts';
import { FIGURE, headerRowCount, joinWrappedRows, spanGroupHeaders, spanHeaderRows } from './table-spans.ts';
import type { Fragment, Line } from './types.ts';

interface Column {
  x0: number;
  x1: number;
}

/** Fewest rows and columns for a grid to count as a table. */
const MIN_ROWS = 2;
const MIN_COLUMNS = 2;
/** More columns than this is a map or a scatter of labels, not a table (and costs quadratic time). */
const MAX_COLUMNS = 60;

/**
 * The cells of a run of rows, or `undefined` when they make no table; `horizontal`: the page's
 * rules (booktabs); `ofWords`: the run was found as a table of words (terms beside prose, rows set
 * apart), so two columns of long lines are allowed.
 */
export function gridOf(rows: readonly Line[], horizontal: readonly Rule[] = [], ofWords = false): string[][] | undefined {
  if (rows.length < MIN_ROWS) return undefined;
  let most = 0;
  for (const row of rows) most = Math.max(most, row.fragments.length);
  // The fullest row's fragments sit side by side, each in a column of its own: past MAX_COLUMNS
  // the grid below would give up anyway, after the work (a map's row of labels).
  if (most > MAX_COLUMNS) return undefined;
  // The checks that need no columns go first: most candidate row runs fail one of them.
  const multi = rows.filter((r) => r.fragments.length >= 2 && r.fragments.length >= 0.75 * most);
  if (multi.length < MIN_ROWS) return undefined;
  let letters = 0;
  let cellCount = 0;
  for (const row of multi) {
    cellCount += row.fragments.length;
    for (const f of row.fragments) letters += f.text.length;
  }
  const meanLength = letters / cellCount;
  if (meanLength > 60) return undefined;
  const columns: Column[] = [];
  // Columns come from the fullest rows; group rows that span columns (`Chemistry | Exploring
  // Combinations…`) would glue neighbouring columns together.
  for (const row of rows) {
    // Only the fullest rows: in a row with fewer cells two of them may have run together.
    if (row.fragments.length < 2 || row.fragments.length < most) continue;
    for (const f of row.fragments) {
      // Real overlap, not a touch: one slightly wide cell must not chain two columns together.
      let hit: Column | undefined;
      for (const c of columns) {
        if (Math.min(c.x1, f.x1) - Math.max(c.x0, f.x0) > 0.3 * Math.min(c.x1 - c.x0, f.x1 - f.x0)) {
          hit = c;
          break;
        }
      }
      if (hit === undefined) {
        if (columns.push({ x0: f.x0, x1: f.x1 }) > MAX_COLUMNS) return undefined;
      } else {
        hit.x0 = Math.min(hit.x0, f.x0);
        hit.x1 = Math.max(hit.x1, f.x1);
      }
    }
  }
  // Then cells of other rows that sit in no column yet open columns of their own (the
  // `enc-layers`/`dec-layers` columns whose values are centred between two rows).
  const extra: Column[] = [];
  // Group labels above the first row of figures, centred over the gap between their sub-columns,
  // open no column: they span those (`table-spans.ts`).
  const firstFigures = rows.findIndex((row) => row.fragments.some((f) => FIGURE.test(f.text.trim())));
  const left = Math.min(...columns.map((c) => c.x0));
  const right = Math.max(...columns.map((c) => c.x1));
  for (const [r, row] of rows.entries()) {
    const label = r < firstFigures && row.fragments.length < most;
    for (const f of row.fragments) {
      if (overlapsAny(columns, f)) continue;
      if (label && f.x0 > left && f.x1 < right) continue;
      let hit: Column | undefined;
      for (const c of extra) {
        if (Math.min(c.x1, f.x1) - Math.max(c.x0, f.x0) > 0) {
          hit = c;
          break;
        }
      }
      if (hit === undefined) {
        if (extra.push({ x0: f.x0, x1: f.x1 }) + columns.length > MAX_COLUMNS) return undefined;
      } else {
        hit.x0 = Math.min(hit.x0, f.x0);
        hit.x1 = Math.max(hit.x1, f.x1);
      }
    }
  }
  const merged = mergeOverlapping([...columns, ...extra]);
  if (merged.length < MIN_COLUMNS) return undefined;
  // Two columns of long lines are two text columns, unless nearly every line is a term beside prose.
  const terms = multi.filter(termRow).length;
  if (merged.length === 2 && meanLength > 30 && !(ofWords && terms >= 3 && terms >= multi.length - 1)) return undefined;
  // Most multi-fragment rows must put their fragments in distinct columns.
  let consistent = 0;
  for (const row of multi) {
    const used = new Set(row.fragments.map((f) => columnOf(merged, f.x0, f.x1)));
    if (used.size === row.fragments.length) consistent++;
  }
  if (consistent < 0.7 * multi.length) return undefined;
  const spans = new Map<Line, { first: number; last: number }[]>();
  const built: GridRow[] = rows.map((row) => {
    const cells: string[] = new Array<string>(merged.length).fill('');
    const extents: (Extent | undefined)[] = new Array<Extent | undefined>(merged.length).fill(undefined);
    const put = (c: number, raw: string, x0: number, x1: number): void => {
      const text = withoutLeaders(raw);
      if (text === '') return;
      cells[c] = cells[c] === '' ? text : `${cells[c]} ${text}`;
      const e = extents[c];
      extents[c] = e === undefined ? { x0, x1 } : { x0: Math.min(e.x0, x0), x1: Math.max(e.x1, x1) };
    };
    for (const f of row.fragments) {
      // Figures set close together can run into one fragment: its runs go to their own columns.
      // Words keep together (a header's words may be set apart wider than a figure gap).
      // Dot leaders between them are no cell's text.
      const figures = f.pieces !== undefined && f.pieces.length > 1 && f.pieces.every((p) => /\d/.test(p.text) || withoutLeaders(p.text) === '');
      const byColumn = figures ? f.pieces!.map((p) => columnOf(merged, p.x0, p.x1)) : undefined;
      if (byColumn !== undefined && new Set(byColumn).size > 1) {
        f.pieces!.forEach((p, k) => put(byColumn[k]!, p.text, p.x0, p.x1));
        continue;
      }
      const c = columnOf(merged, f.x0, f.x1);
      put(c, f.text, f.x0, f.x1);
      if (row.fragments.length < merged.length) {
        const over = merged.map((col, k) => (Math.min(col.x1, f.x1) - Math.max(col.x0, f.x0) > 0 ? k : -1)).filter((k) => k >= 0);
        if (over.length >= 2) spans.set(row, [...(spans.get(row) ?? []), { first: over[0]!, last: over.at(-1)! }]);
      }
    }
    return { cells, extents, line: row, source: row };
  });
  const joined = joinWrappedRows(built);
  // Rules between the rows (booktabs): the one under the header ends it, short ones under
  // group headers give their spans.
  const x0 = Math.min(...merged.map((c) => c.x0));
  const x1 = Math.max(...merged.map((c) => c.x1));
  const between = horizontal.length === 0 ? [] : rulesBetweenRows(joined, horizontal, x0, x1);
  const ruledHead = headerEnd(between, x0, x1, joined.length);
  const midAt = ruledHead === undefined ? undefined : joined[ruledHead - 1]!.line.bottom;
  // Header cells (rows above the body) spread over several columns, with those columns
  // otherwise empty, span them.
  const head = ruledHead ?? headerRowCount(joined.map((g) => g.cells));
  joined.slice(0, head).forEach((g) => {
    for (const { first, last } of spans.get(g.source) ?? []) {
      const text = g.cells.slice(first, last + 1).filter((c) => c !== '');
      if (text.length !== 1 || first === 0) continue;
      const from = g.cells.findIndex((c, k) => k >= first && k <= last && c !== '');
      g.extents[first] = g.extents[from];
      g.cells[first] = text[0]!;
      for (let k = first + 1; k <= last; k++) g.cells[k] = SPANNED;
    }
  });
  spanOverShortRules(joined, between, merged, x0, x1);
  spanGroupHeaders(joined, head);
  const grid = joined.map((g) => g.cells);
  const tidied = mergeHeaderLines(
    withoutEmptyColumns(grid),
    joined.map((g) => g.line),
  );
  const tidiedHead = midAt === undefined ? undefined : tidied.lines.findIndex((l) => l.top > midAt);
  return spanHeaderRows(tidied.cells, tidiedHead !== undefined && tidiedHead > 0 ? tidiedHead : undefined);
}

/** Columns no cell fills (only spanned over, or opened by a stray piece elsewhere) are dropped. */
function withoutEmptyColumns(grid: string[][]): string[][] {
  const width = Math.max(0, ...grid.map((r) => r.length));
  const keep: number[] = [];
  for (let c = 0; c < width; c++) if (grid.some((row) => (row[c] ?? '') !== '' && row[c] !== SPANNED)) keep.push(c);
  if (keep.length === width) return grid;
  return grid.map((row) => keep.map((c) => row[c] ?? ''));
}

function overlapsAny(columns: readonly Column[], f: Fragment): boolean {
  for (const c of columns) if (Math.min(c.x1, f.x1) - Math.max(c.x0, f.x0) > 0) return true;
  return false;
}

function mergeOverlapping(columns: readonly Column[]): Column[] {
  const sorted = [...columns].sort((p, q) => p.x0 - q.x0);
  const out: Column[] = [];
  for (const c of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && last.x1 - c.x0 > 0.3 * Math.min(last.x1 - last.x0, c.x1 - c.x0)) last.x1 = Math.max(last.x1, c.x1);
    else out.push({ ...c });
  }
  return out;
}

function columnOf(columns: readonly Column[], x0: number, x1: number): number {
  let best = 0;
  let bestOverlap = -Infinity;
  for (let i = 0; i < columns.length; i++) {
    const c = columns[i] as Column;
    const overlap = Math.min(c.x1, x1) - Math.max(c.x0, x0);
    if (overlap > bestOverlap) {
      best = i;
      bestOverlap = overlap;
    }
  }
  return best;
}
