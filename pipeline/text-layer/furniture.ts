/**
 * Page headers and footers ("furniture"): text in the top or bottom margin that repeats across
 * pages (running titles, journal names, dates), page numbers, or small text set apart from
 * the body in the margin.
 *
 * Repetition needs more than one page, so {@link FurnitureModel} counts the margin lines of
 * every page it is shown; `extractTextLayer` shows it a few pages ahead before it decides the
 * first ones (see its `lookahead` option), then keeps learning as the stream goes on.
 */
import { lineOf } from './order.ts';
import type { Fragment, Line } from './types.ts';

/** The margin zone, as a share of the page height, where furniture may sit. */
const ZONE = 0.14;
/** Most furniture rows taken from each edge. */
const MAX_ROWS = 3;
/** The outer band, as a share of the page height, where isolated text counts as furniture. */
const OUTER = 0.1;

const PAGE_NUMBER = /^(?:page\s*)?[-–(]?\s*(?:\d{1,4}|[ivxlc]{1,6})\s*[-–)]?(?:\s*(?:of|\/)\s*\d{1,4})?$/i;

/** A footnote: a marker (number or symbol), then words. */
const FOOTNOTE = /^(?:\d{1,2}|[*†‡§¶])\s?\p{L}.{10,}/u;

/** `400 BRITISH HUSBANDRY.`: two or more digits first (a one-digit start is a section heading). */
const LEADING_NUMBER = /^\d{2,4}\s+\S.*\D$/;
/** `Advocacy in Action 447`. */
const TRAILING_NUMBER = /^\D.*\S\s+(?:\d{1,4}|[ivxlc]{1,6})$/i;
const RUNNING_NUMBER = { test: (text: string): boolean => LEADING_NUMBER.test(text) || TRAILING_NUMBER.test(text) };

/**
 * What a line set apart at the foot of a page says when it is furniture whatever its height on the
 * page: a contact address (`Corresponding author: a@b.org`), a copyright line, a DOI.
 */
const FOOT_CONTENT = /[\w.+-]+@[\w-]+\.[\w.]+|©|\(c\)\s*\d{4}|\bdoi:\s*10\.|\bdoi\.org\/10\./iu;
/** How far up the page such a line may sit (share of the height from the top). */
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

/** Text with numbers masked, so `Page 3` and `Page 4` count as the same running line. */
export function furnitureKey(edge: string, text: string): string {
  return `${edge}:${text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim()}`;
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
      if (gap >= 0.5 * bodySize || PAGE_NUMBER.test(row.text) || (row.text.length <= 90 && RUNNING_NUMBER.test(row.text))) cut = i + 1;
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

  /** Whether a margin row is furniture, and why. */
  decide(row: MarginRow, bodySize: number): string | undefined {
    if (row.content === true) return 'foot-content';
    if (PAGE_NUMBER.test(row.line.text)) return 'page-number';
    // A running head or foot that carries the page number: `400 BRITISH HUSBANDRY.`, `Advocacy in Action 447`.
    const text = row.line.text;
    // A footnote (`1 See …`, `* Author …`) is content, whatever its size and place.
    if (row.edge === 'bottom' && FOOTNOTE.test(text)) return undefined;
    if (text.length <= 90 && (LEADING_NUMBER.test(text) || (row.line.size <= 1.05 * bodySize && TRAILING_NUMBER.test(text)))) {
      return 'running-page-number';
    }
    // Running heads are set no bigger than the body; a bigger repeated line is a heading.
    if ((this.#pagesByKey.get(row.key)?.size ?? 0) >= 2 && row.line.size <= 1.05 * bodySize) return 'repeated';
    // Alone on its page (or a one-page document): small type in the margin is furniture.
    if (row.line.text.length > 160) return undefined;
    if (row.line.size < 0.92 * bodySize) return 'small-margin-text';
    // At the top a big isolated line is more likely a heading; at the bottom it is a footer.
    if (row.isolated && (row.edge === 'bottom' || row.line.size <= 1.05 * bodySize)) return 'isolated-margin-text';
    return undefined;
  }

  get pages(): number {
    return this.#pages;
  }
}
