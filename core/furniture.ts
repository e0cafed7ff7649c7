/**
 * Page furniture (running headers and footers, page numbers): the judgement both routes share.
 * The text layer (`pipeline/text-layer/furniture.ts`) finds its margin rows from glyph geometry,
 * the OCR engine (`inference/paddle/furniture.ts`) from its line boxes, and the document pass
 * over OCR pages (`pipeline/run/ocr-furniture.ts`) from the elements' boxes; each then asks
 * {@link furnitureReason} whether a row is furniture, so one rule decides everywhere.
 */

/** The margin zone, as a share of the page height, where furniture may sit. */
export const FURNITURE_ZONE = 0.14;
/** Most furniture rows taken from each edge. */
export const FURNITURE_MAX_ROWS = 3;
/** The outer band, as a share of the page height, where isolated text counts as furniture. */
export const FURNITURE_OUTER = 0.1;

/** `12`, `- 12 -`, `xiv`, `Page 3`, `Page 3 of 9`, `3/9`. */
export const PAGE_NUMBER = /^(?:page\s*)?[-–(]?\s*(?:\d{1,4}|[ivxlc]{1,6})\s*[-–)]?(?:\s*(?:of|\/)\s*\d{1,4})?$/i;

/** A footnote: a marker (number or symbol), then words. */
const FOOTNOTE = /^(?:\d{1,2}|[*†‡§¶])\s?\p{L}.{10,}/u;

/** `400 BRITISH HUSBANDRY.`: two or more digits first (a one-digit start is a section heading). */
const LEADING_NUMBER = /^\d{2,4}\s+\S.*\D$/;
/** `Advocacy in Action 447`. */
const TRAILING_NUMBER = /^\D.*\S\s+(?:\d{1,4}|[ivxlc]{1,6})$/i;

/** A year at a line's end or start (`Prepared by …, December 8, 2023`, `2024 Annual Report`): a date, not a page number. */
const YEAR_AT_END = /(?:^|\D)(?:1[89]|20)\d\d$/;
const YEAR_AT_START = /^(?:1[89]|20)\d\d(?:\D|$)/;

/** Longest running line that may carry a page number. */
const RUNNING_MAX = 90;
/** Longest line that may be furniture for its size or isolation alone. */
const ALONE_MAX = 160;

/**
 * What a line set apart at the foot of a page says when it is furniture whatever its height on the
 * page: a contact address (`Corresponding author: a@b.org`), a copyright line, a DOI.
 */
export const FOOT_CONTENT = /[\w.+-]+@[\w-]+\.[\w.]+|©|\(c\)\s*\d{4}|\bdoi:\s*10\.|\bdoi\.org\/10\./iu;

/** Whether a row reads as a page number or a running line that carries one, whatever its place in the margin. */
export function readsAsPageNumber(text: string): boolean {
  return PAGE_NUMBER.test(text) || (text.length <= RUNNING_MAX && (LEADING_NUMBER.test(text) || TRAILING_NUMBER.test(text)));
}

/** Text with numbers masked, so `Page 3` and `Page 4` count as the same running line. */
export function maskedText(text: string): string {
  return text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
}

/** A row's edge and masked text: what repetition across pages is counted under. */
export function furnitureKey(edge: string, text: string): string {
  return `${edge}:${maskedText(text)}`;
}

/** A row in a page's top or bottom margin, as either route measured it. */
export interface MarginLine {
  readonly text: string;
  readonly edge: 'top' | 'bottom';
  /** Its type size (text layer: font size; OCR: line box height). */
  readonly size: number;
  /** The page's body type size, in the same unit. */
  readonly bodySize: number;
  /** In the outer band of the page and far from the body. */
  readonly isolated: boolean;
  /** Found above the margin zone by what it says (see {@link FOOT_CONTENT}). */
  readonly content?: boolean;
  /** On how many pages of the document the same row (numbers masked) was seen. @default 1 */
  readonly pages?: number;
}

export type FurnitureReason = 'foot-content' | 'page-number' | 'running-page-number' | 'repeated' | 'small-margin-text' | 'isolated-margin-text';

/**
 * Whether a margin row is furniture, and why; `undefined` keeps it in the body.
 *
 * @example
 * furnitureReason({ text: 'Page 3 of 9', edge: 'bottom', size: 9, bodySize: 10, isolated: false }) // 'page-number'
 */
export function furnitureReason(line: Readonly<MarginLine>): FurnitureReason | undefined {
  const { text, edge, size, bodySize, isolated, content = false, pages = 1 } = line;
  if (content) return 'foot-content';
  if (PAGE_NUMBER.test(text)) return 'page-number';
  // A footnote (`1 See …`, `* Author …`) is content, whatever its size and place.
  if (edge === 'bottom' && FOOTNOTE.test(text)) return undefined;
  // A running head or foot that carries the page number: `400 BRITISH HUSBANDRY.`, `Advocacy in Action 447`;
  // a year there is a date (a byline, a cover's foot), which repetition judges like any line.
  const leading = LEADING_NUMBER.test(text) && !YEAR_AT_START.test(text);
  const trailing = size <= 1.05 * bodySize && TRAILING_NUMBER.test(text) && !YEAR_AT_END.test(text);
  if (text.length <= RUNNING_MAX && (leading || trailing)) {
    return 'running-page-number';
  }
  // Running heads are set no bigger than the body; a bigger repeated line is a heading.
  if (pages >= 2 && size <= 1.05 * bodySize) return 'repeated';
  // Alone on its page (or a one-page document): small type in the margin is furniture.
  if (text.length > ALONE_MAX) return undefined;
  if (size < 0.92 * bodySize) return 'small-margin-text';
  // At the top a big isolated line is more likely a heading; at the bottom it is a footer.
  if (isolated && (edge === 'bottom' || size <= 1.05 * bodySize)) return 'isolated-margin-text';
  return undefined;
}
