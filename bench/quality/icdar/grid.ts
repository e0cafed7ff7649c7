/**
 * A table as the ICDAR 2013 structure metric sees it: cells with normalised text, each holding a
 * rectangle of grid slots, and the adjacency relations between non-empty neighbours.
 */

export interface GridCell {
  /** Normalised text (see {@link normalizeCellText}); empty cells take part in no relation. */
  readonly text: string;
  readonly row: number;
  readonly col: number;
  /** Last row / column held, inclusive. */
  readonly endRow: number;
  readonly endCol: number;
}

export interface Grid {
  readonly cells: readonly GridCell[];
}

/** `A\u0000B\u0000h|v`: one adjacency relation as a multiset key. */
export type Relation = string;

/**
 * NFKC, every whitespace run one space, trimmed, lowercased (the metric's step 2).
 *
 * @example
 * normalizeCellText(' To  air\nkg/year ') // 'to air kg/year'
 */
export function normalizeCellText(text: string): string {
  return text.normalize('NFKC').replace(/\s+/gu, ' ').trim().toLowerCase();
}

/**
 * The multiset of adjacency relations of a grid: for each non-empty cell, walk right from each row
 * it spans and down from each column it spans to the first slot held by another non-empty cell;
 * a pair found several times from one spanning cell counts once.
 *
 * @example
 * relations({ cells: [cell('a', 0, 0), cell('b', 0, 1)] }) // Map { 'a\0b\0h' => 1 }
 */
export function relations(grid: Readonly<Grid>): Map<Relation, number> {
  const slots = new Map<string, number>();
  let rows = 0;
  let cols = 0;
  grid.cells.forEach((cell, i) => {
    if (!cell.text) return;
    for (let r = cell.row; r <= cell.endRow; r++) for (let c = cell.col; c <= cell.endCol; c++) if (!slots.has(`${r},${c}`)) slots.set(`${r},${c}`, i);
    rows = Math.max(rows, cell.endRow + 1);
    cols = Math.max(cols, cell.endCol + 1);
  });
  const out = new Map<Relation, number>();
  grid.cells.forEach((cell, i) => {
    if (!cell.text) return;
    const found = new Set<string>();
    for (let r = cell.row; r <= cell.endRow; r++) {
      for (let c = cell.endCol + 1; c < cols; c++) {
        const j = slots.get(`${r},${c}`);
        if (j !== undefined && j !== i) {
          found.add(`${j}\u0000h`);
          break;
        }
      }
    }
    for (let c = cell.col; c <= cell.endCol; c++) {
      for (let r = cell.endRow + 1; r < rows; r++) {
        const j = slots.get(`${r},${c}`);
        if (j !== undefined && j !== i) {
          found.add(`${j}\u0000v`);
          break;
        }
      }
    }
    for (const key of found) {
      const [j, dir] = key.split('\u0000') as [string, string];
      const relation = `${cell.text}\u0000${grid.cells[Number(j)]!.text}\u0000${dir}`;
      out.set(relation, (out.get(relation) ?? 0) + 1);
    }
  });
  return out;
}

/** Size of the multiset intersection of two relation multisets. */
export function overlap(a: ReadonlyMap<Relation, number>, b: ReadonlyMap<Relation, number>): number {
  let n = 0;
  for (const [key, count] of a) n += Math.min(count, b.get(key) ?? 0);
  return n;
}

/** Number of relations in a multiset. */
export function relationCount(a: ReadonlyMap<Relation, number>): number {
  let n = 0;
  for (const count of a.values()) n += count;
  return n;
}
