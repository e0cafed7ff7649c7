/**
 * Simple tables from aligned boxes: a run of at least three rows, each split into two or more
 * short fragments whose horizontal extents fall into the same column bands, is a table. Body
 * text in columns also splits rows in two, so fragments must be short (narrow against the text
 * width, or few words) and there must be at least three bands or very short cells.
 */
import type { Fragment, LayoutBlock, Row } from './layout.ts';
import { median } from './numbers.ts';

export function detectTables(rows: readonly Row[], bodyHeight: number, gutters: readonly number[] = []): { tables: LayoutBlock[]; rest: Row[] } {
  const left = Math.min(...rows.flatMap((r) => r.fragments.map((f) => f.x1)));
  const right = Math.max(...rows.flatMap((r) => r.fragments.map((f) => f.x2)));
  const textWidth = Math.max(1, right - left);
  const isCandidate = (row: Row): boolean => {
    const cells = cellsOf(row, bodyHeight);
    // Cells parted only by column gutters are lines of neighbouring text columns (a list of
    // short references in two columns), not a table row.
    const inColumn = cells.some((f, i) => i > 0 && !gutters.some((g) => cells[i - 1]!.x2 <= g + bodyHeight && f.x1 >= g - bodyHeight));
    return cells.length >= 2 && inColumn && cells.every((f) => f.x2 - f.x1 < 0.45 * textWidth);
  };
  const tables: LayoutBlock[] = [];
  const rest: Row[] = [];
  let i = 0;
  while (i < rows.length) {
    let j = i;
    // Rows must follow each other closely: a big vertical gap ends the table.
    while (j < rows.length && isCandidate(rows[j]!) && (j === i || rows[j]!.y1 - rows[j - 1]!.y2 < 2.5 * bodyHeight)) j++;
    const run = rows.slice(i, j);
    const table = run.length >= 3 ? buildTable(run, bodyHeight) : undefined;
    if (table === undefined) {
      rest.push(rows[i]!);
      i++;
    } else {
      tables.push(table);
      i = j;
    }
  }
  return { tables, rest };
}

/** Fragments of a row, with those closer than a word gap merged into one cell. */
function cellsOf(row: Row, bodyHeight: number): Fragment[] {
  const cells: Fragment[] = [];
  for (const f of row.fragments) {
    const last = cells[cells.length - 1];
    if (last !== undefined && f.x1 - last.x2 < 0.8 * bodyHeight) {
      cells[cells.length - 1] = { ...last, text: `${last.text} ${f.text}`, x2: Math.max(last.x2, f.x2), y2: Math.max(last.y2, f.y2) };
    } else {
      cells.push(f);
    }
  }
  return cells;
}

function buildTable(run: readonly Row[], bodyHeight: number): LayoutBlock | undefined {
  const rowCells = run.map((r) => cellsOf(r, bodyHeight));
  // Column bands: union of overlapping cell extents over all rows.
  const extents = rowCells
    .flat()
    .map((f) => [f.x1, f.x2] as [number, number])
    .sort((a, b) => a[0] - b[0]);
  const bands: [number, number][] = [];
  for (const [a, b] of extents) {
    const last = bands[bands.length - 1];
    if (last !== undefined && a < last[1]) last[1] = Math.max(last[1], b);
    else bands.push([a, b]);
  }
  if (bands.length < 2) return undefined;
  const words = median(rowCells.flat().map((f) => f.text.split(/\s+/).length));
  if (bands.length < 3 && words > 3) return undefined;
  const cells = rowCells.map((cellsInRow) => {
    const out = bands.map(() => '');
    for (const f of cellsInRow) {
      const k = bands.findIndex(([a, b]) => f.x1 < b && f.x2 > a);
      if (k >= 0) out[k] = out[k] === '' ? f.text : `${out[k]} ${f.text}`;
    }
    return out;
  });
  const filled = cells.flat().filter((c) => c !== '').length;
  // Mostly empty grids are scattered text, not tables.
  if (filled < 0.6 * cells.length * bands.length) return undefined;
  const all = run.flatMap((r) => r.fragments);
  return {
    label: 'table',
    x1: Math.min(...all.map((f) => f.x1)),
    y1: Math.min(...all.map((f) => f.y1)),
    x2: Math.max(...all.map((f) => f.x2)),
    y2: Math.max(...all.map((f) => f.y2)),
    lines: [],
    rows: cells,
    lineHeight: bodyHeight,
  };
}
