/**
 * A sheet's cells as blocks: the tables found in it (blocks of filled cells that touch, merged
 * ranges counted as filled), ordered top to bottom then left to right; a block of one cell is a
 * title or note, read as a paragraph. Merged ranges become rowspan/colspan. Each block names the
 * cells it was read from (`range`), one table row per sheet row.
 */
import type { Block, TableCell } from './blocks.ts';
import { cellRange } from './cell-range.ts';
import { checkDeadline } from './deadline.ts';

export interface SheetCell {
  readonly row: number;
  readonly col: number;
  readonly text: string;
}

export interface SheetMerge {
  readonly top: number;
  readonly left: number;
  readonly bottom: number;
  readonly right: number;
}

const key = (row: number, col: number): number => row * 20000 + col;

/**
 * @example
 * sheetBlocks([{ row: 0, col: 0, text: 'a' }, { row: 0, col: 1, text: 'b' }, { row: 1, col: 0, text: '1' }], [])
 */
export function sheetBlocks(cells: readonly SheetCell[], merges: readonly SheetMerge[]): Block[] {
  const text = new Map<number, string>();
  for (const cell of cells) if (cell.text.trim() !== '' && cell.col < 20000) text.set(key(cell.row, cell.col), cell.text.trim());
  const filled = new Set(text.keys());
  const mergeAt = new Map<number, SheetMerge>();
  for (const merge of merges) {
    if ((merge.bottom - merge.top + 1) * (merge.right - merge.left + 1) > 100_000) continue;
    if (!text.has(key(merge.top, merge.left))) continue;
    for (let r = merge.top; r <= merge.bottom; r++) {
      for (let c = merge.left; c <= merge.right; c++) {
        filled.add(key(r, c));
        mergeAt.set(key(r, c), merge);
      }
    }
  }
  // Flood fill over 4-neighbours: each connected group of filled cells is one region.
  const seen = new Set<number>();
  const regions: { top: number; left: number; bottom: number; right: number }[] = [];
  for (const start of [...filled].sort((a, b) => a - b)) {
    if (seen.has(start)) continue;
    checkDeadline();
    const box = { top: Infinity, left: Infinity, bottom: -1, right: -1 };
    const stack = [start];
    seen.add(start);
    while (stack.length > 0) {
      const k = stack.pop()!;
      const r = Math.floor(k / 20000);
      const c = k % 20000;
      box.top = Math.min(box.top, r);
      box.left = Math.min(box.left, c);
      box.bottom = Math.max(box.bottom, r);
      box.right = Math.max(box.right, c);
      for (const n of [key(r - 1, c), key(r + 1, c), c > 0 ? key(r, c - 1) : -1, key(r, c + 1)]) {
        if (n >= 0 && filled.has(n) && !seen.has(n)) {
          seen.add(n);
          stack.push(n);
        }
      }
    }
    regions.push(box);
  }
  regions.sort((a, b) => a.top - b.top || a.left - b.left);
  const blocks: Block[] = [];
  const filledIn = (r: number, box: { left: number; right: number }): number => {
    let n = 0;
    for (let c = box.left; c <= box.right; c++) if (text.has(key(r, c))) n++;
    return n;
  };
  for (const box of regions) {
    // A title above a table: a top row with one filled cell (often merged across) over a row of several.
    while (box.top < box.bottom && box.left < box.right && filledIn(box.top, box) === 1 && filledIn(box.top + 1, box) >= 2) {
      for (let c = box.left; c <= box.right; c++) {
        const title = text.get(key(box.top, c));
        if (title !== undefined) blocks.push({ kind: 'paragraph', spans: [{ text: title }], range: cellRange(box.top, c, box.top, c) });
      }
      box.top++;
    }
    if (box.top === box.bottom && box.left === box.right) {
      blocks.push({ kind: 'paragraph', spans: [{ text: text.get(key(box.top, box.left)) ?? '' }], range: cellRange(box.top, box.left, box.top, box.left) });
      continue;
    }
    const rows: TableCell[][] = [];
    for (let r = box.top; r <= box.bottom; r++) {
      const row: TableCell[] = [];
      for (let c = box.left; c <= box.right; c++) {
        const merge = mergeAt.get(key(r, c));
        if (merge && (merge.top !== r || merge.left !== c)) continue;
        const value = text.get(key(r, c)) ?? '';
        const rowspan = merge ? Math.min(merge.bottom, box.bottom) - r + 1 : 1;
        const colspan = merge ? Math.min(merge.right, box.right) - c + 1 : 1;
        row.push({ text: value, rowspan, colspan, header: r === box.top });
      }
      rows.push(row);
    }
    blocks.push({ kind: 'table', rows, range: cellRange(box.top, box.left, box.bottom, box.right) });
  }
  return blocks;
}
