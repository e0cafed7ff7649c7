/**
 * The features the furniture classifier reads for one candidate margin row. Both routes build the
 * same {@link FurnitureCandidate}: the text layer from its glyph rows, the OCR routes from their
 * line or element boxes (no type size there: `sizeRatio` stays undefined). The document around
 * the row (how many pages repeat it, whether its number follows the page numbers) comes from
 * {@link FurnitureDocument}, which both routes fill page by page.
 *
 * The order of {@link FEATURE_NAMES} is the model's input order: the Python trainer
 * (`training/furniture/`) reads the same names from the dumped rows, so a feature added here is
 * added at the end and the model retrained.
 */
import { FOOT_CONTENT, maskedText, PAGE_NUMBER, readsAsPageNumber } from '../furniture.ts';

/** A row at the top or bottom edge of a page that may be furniture, measured by either route. */
export interface FurnitureCandidate {
  readonly text: string;
  readonly edge: 'top' | 'bottom';
  /** Rows between it and its edge: 0 for the outermost. */
  readonly rank: number;
  /** Its box as shares of the page height (`top`, `bottom`) and of the text's width on the page (`x0`, `x1`). */
  readonly top: number;
  readonly bottom: number;
  readonly x0: number;
  readonly x1: number;
  /** Type size over the body's; undefined where the route cannot tell (OCR element boxes). */
  readonly sizeRatio?: number;
  /** Gap to the next row inward and outward (or to the page edge), in body sizes. */
  readonly gapIn: number;
  readonly gapOut: number;
  /** Pieces of the row parted by wide gaps (a table row has several), and the same for the next row inward. */
  readonly cells: number;
  readonly nextCells: number;
  /** Set in bold (where the route knows). */
  readonly bold?: boolean;
}

/**
 * Masked text with only its letters and number marks kept: what an OCR engine reads of the same
 * running head on two pages differs in dashes, bars and spaces (`—` read `—-`, `|` read `I` is
 * another matter), so OCR rows are matched on this.
 */
export function looseText(text: string): string {
  return maskedText(text).replace(/[^\p{L}#]/gu, '');
}

/** The number a page-number-like row carries (arabic only), or undefined. */
export function carriedNumber(text: string): number | undefined {
  const t = text.trim();
  const m = /^(?:page\s*)?[-–(]?\s*(\d{1,4})\s*[-–)]?(?:\s*(?:of|\/)\s*\d{1,4})?$/i.exec(t) ?? /^(\d{1,4})\s+\S/.exec(t) ?? /\S\s+(\d{1,4})$/.exec(t);
  return m === null ? undefined : Number(m[1]);
}

/**
 * What the document's pages say about its margin rows: on how many pages each masked text comes
 * back at an edge, and at what offset page numbers run from the page index. Fed page by page;
 * read at any time (a streaming route decides with what it has seen so far).
 */
export class FurnitureDocument {
  readonly #pagesByKey = new Map<string, Set<number>>();
  readonly #offsets = new Map<string, Set<number>>();
  readonly #pages = new Set<number>();
  readonly #text: (text: string) => string;

  /** @param loose match rows on {@link looseText} (OCR rows) rather than {@link maskedText}. @default false */
  constructor(options: { readonly loose?: boolean } = {}) {
    this.#text = options.loose === true ? looseText : maskedText;
  }

  /** Record the candidate rows of page `page` (1-based, the document's own order). */
  observe(page: number, rows: readonly Pick<FurnitureCandidate, 'text' | 'edge'>[]): void {
    this.#pages.add(page);
    for (const row of rows) {
      const key = `${row.edge}:${this.#text(row.text)}`;
      const seen = this.#pagesByKey.get(key) ?? new Set<number>();
      seen.add(page);
      this.#pagesByKey.set(key, seen);
      const n = carriedNumber(row.text);
      if (n !== undefined) {
        const offsetKey = `${row.edge}:${n - page}`;
        const pages = this.#offsets.get(offsetKey) ?? new Set<number>();
        pages.add(page);
        this.#offsets.set(offsetKey, pages);
      }
    }
  }

  get pages(): number {
    return this.#pages.size;
  }

  /** Other pages with the same masked text at the same edge. */
  repeats(row: Pick<FurnitureCandidate, 'text' | 'edge'>, page: number): number {
    const seen = this.#pagesByKey.get(`${row.edge}:${this.#text(row.text)}`);
    return seen === undefined ? 0 : seen.size - (seen.has(page) ? 1 : 0);
  }

  /** Other pages whose row at the same edge carries a number at the same offset from its page. */
  sequence(row: Pick<FurnitureCandidate, 'text' | 'edge'>, page: number): number {
    const n = carriedNumber(row.text);
    if (n === undefined) return 0;
    const seen = this.#offsets.get(`${row.edge}:${n - page}`);
    return seen === undefined ? 0 : seen.size - (seen.has(page) ? 1 : 0);
  }
}

/** The model's inputs, in order. */
export const FEATURE_NAMES = [
  'top_edge',
  'rank',
  'edge_distance',
  'height',
  'x0',
  'x1',
  'x_centre',
  'width',
  'size_known',
  'size_ratio',
  'gap_in',
  'gap_out',
  'cells',
  'next_cells',
  'bold',
  'length',
  'words',
  'digit_share',
  'upper_share',
  'letter_share',
  'page_number',
  'running_number',
  'foot_content',
  'footnote',
  'sentence',
  'title_case',
  'pages',
  'first_page',
  'last_page',
  'repeats',
  'repeat_share',
  'sequence',
  'sequence_share',
  'number_is_page',
] as const;

/** A footnote: a marker (number or symbol), then words. */
const FOOTNOTE = /^(?:\d{1,2}|[*†‡§¶])\s?\p{L}.{10,}/u;

const cap = (v: number, max: number): number => (Number.isFinite(v) ? Math.max(-max, Math.min(max, v)) : max);

/**
 * The feature vector of one candidate on page `page` (1-based) of a document seen so far as `doc`.
 *
 * @example
 * furnitureFeatures({ text: '- 3 -', edge: 'bottom', rank: 0, top: 0.95, bottom: 0.96, x0: 0.48, x1: 0.52, gapIn: 4, gapOut: 2, cells: 1, nextCells: 1 }, 3, doc)
 */
export function furnitureFeatures(row: Readonly<FurnitureCandidate>, page: number, doc: FurnitureDocument): number[] {
  const text = row.text.trim();
  const chars = [...text];
  const letters = chars.filter((c) => /\p{L}/u.test(c));
  const digits = chars.filter((c) => /\p{N}/u.test(c)).length;
  const upper = letters.filter((c) => c !== c.toLowerCase()).length;
  const words = text.split(/\s+/).filter((w) => w !== '');
  const capitalised = words.filter((w) => /^\p{Lu}/u.test(w)).length;
  const pages = Math.max(doc.pages, 1);
  const repeats = doc.repeats(row, page);
  const sequence = doc.sequence(row, page);
  const others = Math.max(pages - 1, 1);
  const n = carriedNumber(text);
  return [
    row.edge === 'top' ? 1 : 0,
    row.rank,
    row.edge === 'top' ? row.top : 1 - row.bottom,
    row.bottom - row.top,
    row.x0,
    row.x1,
    (row.x0 + row.x1) / 2,
    row.x1 - row.x0,
    row.sizeRatio === undefined ? 0 : 1,
    row.sizeRatio === undefined ? 1 : cap(row.sizeRatio, 5),
    cap(row.gapIn, 20),
    cap(row.gapOut, 20),
    Math.min(row.cells, 10),
    Math.min(row.nextCells, 10),
    row.bold === true ? 1 : 0,
    Math.log1p(chars.length),
    Math.min(words.length, 40),
    chars.length === 0 ? 0 : digits / chars.length,
    letters.length === 0 ? 0 : upper / letters.length,
    chars.length === 0 ? 0 : letters.length / chars.length,
    PAGE_NUMBER.test(text) ? 1 : 0,
    readsAsPageNumber(text) ? 1 : 0,
    FOOT_CONTENT.test(text) ? 1 : 0,
    row.edge === 'bottom' && FOOTNOTE.test(text) ? 1 : 0,
    /[.!?:;]$/.test(text) && words.length >= 5 ? 1 : 0,
    words.length === 0 ? 0 : capitalised / words.length,
    Math.log1p(pages),
    page === 1 ? 1 : 0,
    pages > 1 && page >= pages ? 1 : 0,
    Math.min(repeats, 20),
    pages <= 1 ? 0 : repeats / others,
    Math.min(sequence, 20),
    pages <= 1 ? 0 : sequence / others,
    n !== undefined && n === page ? 1 : 0,
  ];
}
