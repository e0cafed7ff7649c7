/**
 * Page headers and footers ("furniture"): text in the top or bottom margin that repeats across
 * pages (running titles, journal names, dates), page numbers, or small text set apart from
 * the body in the margin.
 *
 * Repetition needs more than one page, so {@link FurnitureModel} counts the margin lines of
 * every page it is shown; `extractTextLayer` shows it a few pages ahead before it decides the
 * first ones (see its `lookahead` option), then keeps learning as the stream goes on.
 */
import { FOOT_CONTENT, FURNITURE_MAX_ROWS, FURNITURE_OUTER, FURNITURE_ZONE, furnitureKey, furnitureReason, readsAsPageNumber } from '../../core/furniture.ts';
import { lineOf } from './order.ts';
import type { Fragment, Line } from './types.ts';

const ZONE = FURNITURE_ZONE;
const MAX_ROWS = FURNITURE_MAX_ROWS;
const OUTER = FURNITURE_OUTER;
/** How far up the page a contact, copyright or DOI line may sit (share of the height from the top). */
const FOOT_CONTENT_FROM = 0.6;

export interface MarginRow {
  readonly line: Line;
  readonly edge: 'top' | 'bottom';
  readonly key: string;
  /** In the outer band of the page and far from the body. */
  readonly isolated: boolean;
  /** Found above the margin zone by what it says (see `FOOT_CONTENT`). */
  readonly content?: boolean;
}

/**
 * Rows at the top and bottom edge of a page that could be furniture: in the margin zone and
 * set apart from the next row inward by at least `0.5` × body size.
 */
export function marginRows(fragments: readonly Fragment[], pageHeight: number, bodySize: number): MarginRow[] {
  if (fragments.length === 0) return [];
  const rows = rowsOf(fragments);
  const out: MarginRow[] = [];
  // From each edge inward: the rows in the zone, then cut after the last clear gap, so a
  // two-row header ("Downloaded from …" over "Advocacy in Action 447") goes out whole.
  const take = (ordered: Line[], edge: 'top' | 'bottom'): void => {
    let cut = 0;
    for (let i = 0; i < Math.min(MAX_ROWS, ordered.length - 1); i++) {
      const row = ordered[i] as Line;
      const next = ordered[i + 1] as Line;
      const inZone = edge === 'top' ? row.bottom <= ZONE * pageHeight : row.top >= (1 - ZONE) * pageHeight;
      if (!inZone) break;
      const gap = edge === 'top' ? next.top - row.bottom : row.top - next.bottom;
      if (gap >= 0.5 * bodySize || readsAsPageNumber(row.text)) cut = i + 1;
    }
    for (let i = 0; i < cut; i++) {
      const row = ordered[i] as Line;
      const next = ordered[i + 1] as Line;
      const gap = edge === 'top' ? next.top - row.bottom : row.top - next.bottom;
      const outer = edge === 'top' ? row.bottom <= OUTER * pageHeight : row.top >= (1 - OUTER) * pageHeight;
      out.push({ line: row, edge, key: furnitureKey(edge, row.text), isolated: i === cut - 1 && outer && gap >= 1.2 * bodySize });
    }
  };
  take(rows, 'top');
  take([...rows].reverse(), 'bottom');
  // Above the margin zone: the lowest rows, set apart from the body, that read as a contact
  // address, copyright or DOI (a first page's foot, where the zone holds nothing).
  const bottomTaken = out.filter((r) => r.edge === 'bottom').length;
  const upward = [...rows].reverse();
  for (let i = bottomTaken; i < Math.min(bottomTaken + 2, upward.length - 1); i++) {
    const row = upward[i] as Line;
    const next = upward[i + 1] as Line;
    if (row.top < FOOT_CONTENT_FROM * pageHeight || row.text.length > 120 || !FOOT_CONTENT.test(row.text)) break;
    if (row.top - next.bottom < 1.5 * bodySize) break;
    out.push({ line: row, edge: 'bottom', key: furnitureKey('bottom', row.text), isolated: true, content: true });
  }
  return out;
}

function rowsOf(fragments: readonly Fragment[]): Line[] {
  const sorted = [...fragments].sort((p, q) => p.top - q.top);
  const rows: Fragment[][] = [];
  let row: Fragment[] = [];
  let bottom = -Infinity;
  for (const f of sorted) {
    if (row.length > 0 && f.top < bottom - 0.3 * f.size) {
      row.push(f);
      bottom = Math.max(bottom, f.bottom);
      continue;
    }
    if (row.length > 0) rows.push(row);
    row = [f];
    bottom = f.bottom;
  }
  if (row.length > 0) rows.push(row);
  return rows.map(lineOf);
}

/** Counts margin lines across pages and decides which rows are furniture. */
export class FurnitureModel {
  readonly #pagesByKey = new Map<string, Set<number>>();
  #pages = 0;

  /** Record a page's margin rows. */
  observe(pageNumber: number, rows: readonly MarginRow[]): void {
    this.#pages++;
    for (const row of rows) {
      let pages = this.#pagesByKey.get(row.key);
      if (pages === undefined) {
        pages = new Set();
        this.#pagesByKey.set(row.key, pages);
      }
      pages.add(pageNumber);
    }
  }

  /** Whether a margin row is furniture, and why (the rule both routes share: `core/furniture.ts`). */
  decide(row: MarginRow, bodySize: number): string | undefined {
    const { text, size } = row.line;
    return furnitureReason({
      text,
      edge: row.edge,
      size,
      bodySize,
      isolated: row.isolated,
      content: row.content,
      pages: this.#pagesByKey.get(row.key)?.size ?? 0,
    });
  }

  get pages(): number {
    return this.#pages;
  }
}
