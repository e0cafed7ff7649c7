/**
 * Tables as olmOCR-Bench sees them: a grid with spans expanded, each cell stored once at its
 * top-left slot, and for every cell the set of cells directly up, down, left and right of it (a
 * spanning cell can have several neighbours on one side). Heading cells (`<th>`, rows in
 * `<thead>`, or the first row and column of a Markdown table) feed the `top_heading` and
 * `left_heading` checks.
 */

/** `row,col` of a cell's top-left slot. */
export type CellKey = string;

/** One cell as the parser saw it, before spans are laid out. */
export interface CellSpec {
  readonly text: string;
  readonly rowspan: number;
  readonly colspan: number;
  readonly heading: boolean;
}

export interface TableGraph {
  readonly cellText: ReadonlyMap<CellKey, string>;
  readonly headingCells: ReadonlySet<CellKey>;
  readonly up: ReadonlyMap<CellKey, ReadonlySet<CellKey>>;
  readonly down: ReadonlyMap<CellKey, ReadonlySet<CellKey>>;
  readonly left: ReadonlyMap<CellKey, ReadonlySet<CellKey>>;
  readonly right: ReadonlyMap<CellKey, ReadonlySet<CellKey>>;
}

interface Placed {
  readonly key: CellKey;
  readonly row: number;
  readonly col: number;
  readonly rowspan: number;
  readonly colspan: number;
}

/**
 * Lay out rows of cell specs on a grid (rowspans carried into later rows, colspans widening the
 * row) and compute the neighbour relations. Returns undefined for a table with no cells.
 *
 * @example
 * buildTableGraph([[{ text: 'a', rowspan: 1, colspan: 2, heading: true }], [cell('b'), cell('c')]])
 */
export function buildTableGraph(rows: readonly (readonly CellSpec[])[]): TableGraph | undefined {
  const cellText = new Map<CellKey, string>();
  const headingCells = new Set<CellKey>();
  const placed: Placed[] = [];
  const occupancy: (CellKey | undefined)[][] = [];
  // Per column: the cell still hanging down from a previous row and how many rows it has left.
  const active: ({ key: CellKey; remaining: number } | undefined)[] = [];

  const pushRowspans = (entries: (CellKey | undefined)[], col: number): void => {
    const span = active[col]!;
    entries.push(span.key);
    active[col] = span.remaining - 1 > 0 ? { key: span.key, remaining: span.remaining - 1 } : undefined;
  };

  rows.forEach((specs, rowIndex) => {
    const entries: (CellKey | undefined)[] = [];
    let col = 0;
    let next = 0;
    while (next < specs.length || col < active.length) {
      if (col < active.length && active[col] !== undefined) {
        pushRowspans(entries, col);
        col++;
        continue;
      }
      if (next >= specs.length) {
        entries.push(undefined);
        col++;
        continue;
      }
      const spec = specs[next++]!;
      const rowspan = Math.max(1, Math.trunc(spec.rowspan) || 1);
      const colspan = Math.max(1, Math.trunc(spec.colspan) || 1);
      const key = `${rowIndex},${col}`;
      cellText.set(key, spec.text);
      if (spec.heading) headingCells.add(key);
      placed.push({ key, row: rowIndex, col, rowspan, colspan });
      while (active.length < col + colspan) active.push(undefined);
      for (let offset = 0; offset < colspan; offset++) {
        entries.push(key);
        active[col + offset] = rowspan > 1 ? { key, remaining: rowspan - 1 } : undefined;
      }
      col += colspan;
    }
    occupancy.push(entries);
  });
  // Rowspans reaching past the last row still occupy slots below it.
  while (active.some((span) => span !== undefined)) {
    const entries: (CellKey | undefined)[] = [];
    for (let col = 0; col < active.length; col++) {
      if (active[col] === undefined) entries.push(undefined);
      else pushRowspans(entries, col);
    }
    occupancy.push(entries);
  }
  if (cellText.size === 0) return undefined;

  let width = 0;
  for (const entries of occupancy)
    entries.forEach((key, col) => {
      if (key !== undefined) width = Math.max(width, col + 1);
    });
  if (width === 0) return undefined;
  for (const entries of occupancy) {
    while (entries.length < width) entries.push(undefined);
    entries.length = width;
  }
  const height = occupancy.length;
  const at = (row: number, col: number): CellKey | undefined => occupancy[row]?.[col];

  const up = new Map<CellKey, Set<CellKey>>();
  const down = new Map<CellKey, Set<CellKey>>();
  const left = new Map<CellKey, Set<CellKey>>();
  const right = new Map<CellKey, Set<CellKey>>();
  for (const key of cellText.keys()) for (const map of [up, down, left, right]) map.set(key, new Set());

  // Scan outwards from each edge of the cell to the first slot held by another cell.
  const firstOther = (key: CellKey, slots: Iterable<[number, number]>): CellKey | undefined => {
    for (const [row, col] of slots) {
      const other = at(row, col);
      if (other !== undefined && other !== key) return other;
    }
    return undefined;
  };
  function* range(from: number, to: number, step: number): Generator<number> {
    for (let i = from; step > 0 ? i < to : i > to; i += step) yield i;
  }
  for (const cell of placed) {
    const rowEnd = cell.row + cell.rowspan - 1;
    const colEnd = cell.col + cell.colspan - 1;
    for (let row = cell.row; row <= rowEnd; row++) {
      const r = firstOther(
        cell.key,
        Array.from(range(colEnd + 1, width, 1), (c): [number, number] => [row, c]),
      );
      if (r) right.get(cell.key)!.add(r);
      const l = firstOther(
        cell.key,
        Array.from(range(cell.col - 1, -1, -1), (c): [number, number] => [row, c]),
      );
      if (l) left.get(cell.key)!.add(l);
    }
    for (let col = cell.col; col <= colEnd; col++) {
      const d = firstOther(
        cell.key,
        Array.from(range(rowEnd + 1, height, 1), (r): [number, number] => [r, col]),
      );
      if (d) down.get(cell.key)!.add(d);
      const u = firstOther(
        cell.key,
        Array.from(range(cell.row - 1, -1, -1), (r): [number, number] => [r, col]),
      );
      if (u) up.get(cell.key)!.add(u);
    }
  }
  return { cellText, headingCells, up, down, left, right };
}

/**
 * Walk a relation (up for `top_heading`, left for `left_heading`) from a cell as far as it goes:
 * the heading cells met on the way, or if there are none, the cells where the walk ends.
 */
export function headingRelations(table: TableGraph, start: CellKey, relation: 'up' | 'left'): Set<CellKey> {
  const edges = table[relation];
  const headings = new Set<CellKey>();
  const ends = new Set<CellKey>();
  const visited = new Set<CellKey>();
  const toVisit = [start];
  while (toVisit.length > 0) {
    const cur = toVisit.pop()!;
    if (visited.has(cur)) continue;
    visited.add(cur);
    if (table.headingCells.has(cur)) headings.add(cur);
    const next = edges.get(cur);
    if (!next || next.size === 0) ends.add(cur);
    else for (const key of next) toVisit.push(key);
  }
  headings.delete(start);
  ends.delete(start);
  return headings.size > 0 ? headings : ends;
}
