/**
 * What the office writers (DOCX, ODT) print: the body blocks, the page, the fonts and the running
 * heads and feet, from which both the package and the exact furniture truth come. Page numbers are
 * written as fields (`{PAGE}`, `{PAGES}`) that LibreOffice fills in; the truth fills them the same way.
 */
import type { PageFurniture, TruthBlock, TruthTable } from '../../types.ts';

/** One line of a running head or foot; `{PAGE}` and `{PAGES}` become the page number and count. */
export interface RunningLine {
  readonly text: string;
  readonly align: 'left' | 'center' | 'right';
  /** @default false */
  readonly bold?: boolean;
  /** @default the body size less one point */
  readonly sizePt?: number;
  /**
   * A rule under the line (heads) or above it (feet): a look, not text.
   * @default false
   */
  readonly rule?: boolean;
}

/**
 * Heads or feet of the pages: `first` for page 1 (`[]`: none printed; absent: as the others),
 * `even` for even pages (absent: as the odd ones), `odd` for the rest.
 */
export interface RunningSet {
  readonly first?: readonly RunningLine[];
  readonly odd: readonly RunningLine[];
  readonly even?: readonly RunningLine[];
}

/** A body block as the writers print it: truth blocks, and a label/value line (memos) or a close-set line (addresses). */
export type OfficeBlock =
  | TruthBlock
  | { readonly kind: 'field'; readonly label: string; readonly value: string }
  | { readonly kind: 'line'; readonly text: string; readonly bold?: boolean }
  /**
   * A table of contents without page numbers (Word's `TOC \n`): LibreOffice prints a TOC field's
   * stored entries as they are and never refreshes them, so page numbers written before printing
   * could not be known to be right; the entries alone are exact.
   */
  | { readonly kind: 'toc'; readonly entries: readonly { readonly text: string; readonly depth: number }[] };

export type Ruling = 'grid' | 'rules' | 'header-rule' | 'none';

export interface OfficeLayout {
  readonly paper: 'A4' | 'Letter';
  /** Margins in millimetres. */
  readonly margin: { readonly top: number; readonly bottom: number; readonly left: number; readonly right: number };
  readonly bodyFont: string;
  readonly headingFont: string;
  readonly sizePt: number;
  /** Line spacing as a multiple of single. */
  readonly leading: number;
  /** Space after a paragraph, points. */
  readonly afterPt: number;
  readonly justify: boolean;
  /** Headings' colour, `RRGGBB`. */
  readonly headingColor: string;
  readonly header: RunningSet;
  readonly footer: RunningSet;
  /** How `{PAGE}` prints. */
  readonly pageFormat: 'decimal' | 'lowerRoman';
  readonly ruling: Ruling;
  /**
   * Body columns after the document's first `spanning` blocks (title matter across the width).
   * @default 1
   */
  readonly columns?: 1 | 2;
}

export interface OfficeDocument {
  readonly layout: OfficeLayout;
  readonly blocks: readonly OfficeBlock[];
  readonly title: string;
  /** Blocks at the start printed across the full width when the layout has two columns. @default 0 */
  readonly spanning?: number;
}

export const PAPER_MM: Readonly<Record<OfficeLayout['paper'], readonly [number, number]>> = { A4: [210, 297], Letter: [215.9, 279.4] };

/** Lower-case Roman numerals, as Word and LibreOffice print them. */
export function roman(n: number): string {
  const table: [number, string][] = [
    [1000, 'm'],
    [900, 'cm'],
    [500, 'd'],
    [400, 'cd'],
    [100, 'c'],
    [90, 'xc'],
    [50, 'l'],
    [40, 'xl'],
    [10, 'x'],
    [9, 'ix'],
    [5, 'v'],
    [4, 'iv'],
    [1, 'i'],
  ];
  let out = '';
  for (const [value, digits] of table) {
    while (n >= value) {
      out += digits;
      n -= value;
    }
  }
  return out;
}

/** The lines of `set` that page `page` prints. */
export function linesOf(set: RunningSet, page: number): readonly RunningLine[] {
  if (page === 1 && set.first) return set.first;
  if (page % 2 === 0 && set.even) return set.even;
  return set.odd;
}

/** A running line's printed text on page `page` of `pages`. */
export function fill(text: string, page: number, pages: number, format: OfficeLayout['pageFormat']): string {
  return text.replaceAll('{PAGE}', format === 'lowerRoman' ? roman(page) : String(page)).replaceAll('{PAGES}', String(pages));
}

/** The furniture truth of a layout: what each page prints in its head and foot. */
export function furnitureOf(layout: OfficeLayout): (page: number, pages: number) => PageFurniture {
  return (page, pages) => ({
    header: linesOf(layout.header, page).map((l) => fill(l.text, page, pages, layout.pageFormat)),
    footer: linesOf(layout.footer, page).map((l) => fill(l.text, page, pages, layout.pageFormat)),
  });
}

/** The truth of the printed body: labels and close-set lines are paragraphs as a reader sees them, spacers nothing. */
export function truthBlocks(blocks: readonly OfficeBlock[]): TruthBlock[] {
  // An empty paragraph is a spacer: nothing is printed.
  return blocks
    .filter((b) => !(b.kind === 'paragraph' && b.text === ''))
    .map((b): TruthBlock => {
      if (b.kind === 'field') return { kind: 'paragraph', text: `${b.label} ${b.value}` };
      if (b.kind === 'line') return { kind: 'paragraph', text: b.text };
      // A contents list prints no markers: a list whose items are the entries, nested by level.
      if (b.kind === 'toc') return { kind: 'list', ordered: false, items: b.entries };
      return b;
    });
}

/**
 * Column widths as shares of `total`: columns of words (labels) get more room than columns of
 * figures, so labels wrap less and never inside a word.
 */
export function columnWidths(table: TruthTable, total: number): number[] {
  const wordy = Array.from({ length: table.cols }, (_, c) =>
    table.cells.some((x) => x.col === c && x.colspan === 1 && !x.header && /[A-Za-z]{3}/.test(x.text)),
  );
  const weights = wordy.map((y) => (y ? 2.2 : 1));
  const sum = weights.reduce((a, b) => a + b, 0);
  return weights.map((k) => Math.floor((total * k) / sum));
}

/** Text for XML content and attributes. */
export function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** `{PAGE}`/`{PAGES}` split out of a running line: literal pieces and field names in order. */
export function pieces(text: string): ({ readonly literal: string } | { readonly field: 'PAGE' | 'PAGES' })[] {
  return text
    .split(/(\{PAGE\}|\{PAGES\})/)
    .filter((p) => p !== '')
    .map((p) => (p === '{PAGE}' ? { field: 'PAGE' as const } : p === '{PAGES}' ? { field: 'PAGES' as const } : { literal: p }));
}
