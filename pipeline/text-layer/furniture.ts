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
import type { FurnitureCandidate } from '../../core/furniture-model/index.ts';
import { FurnitureDocument, judgeFurniture, looseText } from '../../core/furniture-model/index.ts';
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
  /** What the classifier reads of it (`core/furniture-model`). */
  readonly candidate: FurnitureCandidate;
  /** Among the rows the hand rules looked at (the zone cut at the last clear gap): what `FOLIO_FURNITURE=rules` judges. */
  readonly legacy: boolean;
}

/** The wider zone, as a share of the page height, where the classifier looks at rows. */
const WIDE_ZONE = 0.2;
/** Most rows from each edge the classifier looks at. */
const WIDE_ROWS = 4;

/**
 * Rows at the top and bottom edge of a page that could be furniture: the outermost few in the
 * margin zone, each measured for the classifier; the ones the hand rules judge (in the zone and
 * set apart from the next row inward by at least `0.5` × body size) are marked `legacy`.
 */
export function marginRows(fragments: readonly Fragment[], pageHeight: number, bodySize: number): MarginRow[] {
  if (fragments.length === 0) return [];
  const rows = rowsOf(fragments);
  const left = Math.min(...fragments.map((f) => f.x0));
  const width = Math.max(Math.max(...fragments.map((f) => f.x1)) - left, 1);
  const out: MarginRow[] = [];
  const taken = new Set<Line>();
  const measure = (ordered: readonly Line[], i: number, edge: 'top' | 'bottom', extra: Partial<FurnitureCandidate> = {}): FurnitureCandidate => {
    const row = ordered[i] as Line;
    const next = ordered[i + 1];
    const previous = ordered[i - 1];
    const gapIn = next === undefined ? 20 : edge === 'top' ? next.top - row.bottom : row.top - next.bottom;
    const gapOut =
      previous === undefined ? (edge === 'top' ? row.top : pageHeight - row.bottom) : edge === 'top' ? row.top - previous.bottom : previous.top - row.bottom;
    return {
      text: row.text,
      edge,
      rank: i,
      top: row.top / pageHeight,
      bottom: row.bottom / pageHeight,
      x0: (row.x0 - left) / width,
      x1: (row.x1 - left) / width,
      sizeRatio: row.size / bodySize,
      gapIn: gapIn / bodySize,
      gapOut: gapOut / bodySize,
      cells: cellsOf(row, bodySize),
      nextCells: next === undefined ? 0 : cellsOf(next, bodySize),
      bold: /bold|black|heavy|semibold/i.test(row.font),
      ...extra,
    };
  };
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
    for (let i = 0; i < Math.min(WIDE_ROWS, ordered.length - 1); i++) {
      const row = ordered[i] as Line;
      const inZone = edge === 'top' ? row.bottom <= WIDE_ZONE * pageHeight : row.top >= (1 - WIDE_ZONE) * pageHeight;
      if ((!inZone && i >= cut) || taken.has(row)) break;
      taken.add(row);
      const next = ordered[i + 1] as Line;
      const gap = edge === 'top' ? next.top - row.bottom : row.top - next.bottom;
      const outer = edge === 'top' ? row.bottom <= OUTER * pageHeight : row.top >= (1 - OUTER) * pageHeight;
      out.push({
        line: row,
        edge,
        key: furnitureKey(edge, row.text),
        isolated: i === cut - 1 && outer && gap >= 1.2 * bodySize,
        candidate: measure(ordered, i, edge),
        legacy: i < cut,
      });
    }
  };
  take(rows, 'top');
  take([...rows].reverse(), 'bottom');
  // Above the margin zone: the lowest rows, set apart from the body, that read as a contact
  // address, copyright or DOI (a first page's foot, where the zone holds nothing).
  const bottomTaken = out.filter((r) => r.edge === 'bottom' && r.legacy).length;
  const upward = [...rows].reverse();
  for (let i = bottomTaken; i < Math.min(bottomTaken + 2, upward.length - 1); i++) {
    const row = upward[i] as Line;
    const next = upward[i + 1] as Line;
    if (row.top < FOOT_CONTENT_FROM * pageHeight || row.text.length > 120 || !FOOT_CONTENT.test(row.text)) break;
    if (row.top - next.bottom < 1.5 * bodySize) break;
    // Already a wide-zone candidate: it becomes the content row the hand rules judge.
    const at = out.findIndex((r) => r.line === row);
    if (at >= 0) out.splice(at, 1);
    out.push({
      line: row,
      edge: 'bottom',
      key: furnitureKey('bottom', row.text),
      isolated: true,
      content: true,
      candidate: measure(upward, i, 'bottom'),
      legacy: true,
    });
  }
  return out;
}

/** Pieces of a row parted by gaps wider than the body size: a table row has several. */
function cellsOf(line: Line, bodySize: number): number {
  const sorted = [...line.fragments].sort((a, b) => a.x0 - b.x0);
  let cells = sorted.length === 0 ? 0 : 1;
  for (let i = 1; i < sorted.length; i++) if ((sorted[i] as Fragment).x0 - (sorted[i - 1] as Fragment).x1 > 1.0 * bodySize) cells++;
  return cells;
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

/** A row the classifier judged, for the trainer (`training/furniture/dump.ts`). */
export interface FurnitureTrace {
  readonly page: number;
  readonly row: MarginRow;
  readonly features: readonly number[];
  readonly probability: number;
  /** What the hand rules said (legacy rows only). */
  readonly rules: string | undefined;
}

/**
 * Which judge decides: the classifier (default) or the hand rules of `core/furniture.ts`, kept
 * for side-by-side measurement (`FOLIO_FURNITURE=rules`).
 */
const JUDGE = process.env.FOLIO_FURNITURE === 'rules' ? 'rules' : 'model';

/**
 * Who decides furniture: the classifier, the hand rules, or on OCR pages (type sizes measured
 * from boxes, OCR noise in the text) the rules and, for rows that come back on the document's
 * other pages, the classifier.
 */
export type FurnitureJudge = 'model' | 'rules' | 'ocr';

/** Counts margin lines across pages and decides which rows are furniture. */
export class FurnitureModel {
  /** Set by the trainer's dump to see every judged row; undefined in normal runs. */
  static trace: ((trace: FurnitureTrace) => void) | undefined;
  readonly #pagesByKey = new Map<string, Set<number>>();
  readonly #document: FurnitureDocument;
  /** Keyed by the row's candidate, which a caller's adjusted copy of the row (`{ ...row, line }`) keeps. */
  readonly #pageOf = new WeakMap<FurnitureCandidate, number>();
  readonly #judge: FurnitureJudge;
  #pages = 0;

  /**
   * @param judge who decides. @default the classifier, or the rules under `FOLIO_FURNITURE=rules`.
   *   OCR pages pass `'ocr'`: on a page with nothing seen before it the rules measured better
   *   (factory-scans recall 0.96 against the model's 0.85, and the running heads with page
   *   numbers of olmOCR dev); see {@link FurnitureJudge}.
   */
  constructor(judge: FurnitureJudge = JUDGE) {
    this.#judge = judge;
    // OCR reads the same running head a little differently on each page: match on letters alone.
    this.#document = new FurnitureDocument({ loose: judge === 'ocr' });
  }

  /** The key repetition is counted under: the row's masked text, its letters alone on OCR pages. */
  #keyOf(row: MarginRow): string {
    return this.#judge === 'ocr' ? `${row.edge}:${looseText(row.line.text)}` : row.key;
  }

  /** Record a page's margin rows. */
  observe(pageNumber: number, rows: readonly MarginRow[]): void {
    this.#pages++;
    for (const row of rows) {
      this.#pageOf.set(row.candidate, pageNumber);
      if (!row.legacy) continue;
      const key = this.#keyOf(row);
      let pages = this.#pagesByKey.get(key);
      if (pages === undefined) {
        pages = new Set();
        this.#pagesByKey.set(key, pages);
      }
      pages.add(pageNumber);
    }
    this.#document.observe(
      pageNumber,
      rows.map((r) => r.candidate),
    );
  }

  /** Whether a margin row is furniture, and why: the classifier's verdict (`core/furniture-model`), or the hand rules'. */
  decide(row: MarginRow, bodySize: number): string | undefined {
    const rules = row.legacy ? this.#rules(row, bodySize) : undefined;
    const trace = FurnitureModel.trace;
    if (this.#judge === 'rules' && trace === undefined) return rules;
    const page = this.#pageOf.get(row.candidate) ?? 1;
    const verdict = judgeFurniture(row.candidate, page, this.#document);
    trace?.({ page, row, features: verdict.features, probability: verdict.probability, rules });
    if (this.#judge === 'rules' || (this.#judge === 'ocr' && JUDGE === 'rules')) return rules;
    if (this.#judge === 'ocr') {
      // What the pages seen so far show: a row that comes back at its edge, or whose number runs
      // with the page numbers, is the classifier's to judge; the rest stays with the rules.
      const across = this.#document.repeats(row.candidate, page) > 0 || this.#document.sequence(row.candidate, page) > 0;
      return rules ?? (across && verdict.furniture && row.legacy ? 'model' : undefined);
    }
    // The rows past the hand cut (wider zone, no clear gap) are measured for the trainer only:
    // on every set where they were judged too, they cost more body lines than they found furniture.
    // A contact, copyright or DOI line above the margin zone is the hand rule's: the training
    // pages hold too few of them for the model to judge (it keeps every one).
    if (row.content === true) return rules;
    return verdict.furniture && row.legacy ? 'model' : undefined;
  }

  #rules(row: MarginRow, bodySize: number): string | undefined {
    const { text, size } = row.line;
    return furnitureReason({
      text,
      edge: row.edge,
      size,
      bodySize,
      isolated: row.isolated,
      content: row.content,
      pages: this.#pagesByKey.get(this.#keyOf(row))?.size ?? 0,
    });
  }

  get pages(): number {
    return this.#pages;
  }
}
