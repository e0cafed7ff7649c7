/**
 * From recognised line fragments to page blocks: fragments on one baseline form rows, runs of
 * rows whose fragments line up in columns become tables, the other lines are stacked into
 * paragraphs, paragraphs are put in reading order, and tall short blocks become headings.
 */

import type { Fragment } from './filter.ts';
import { labelFurniture } from './furniture.ts';
import { median } from './numbers.ts';
import { readingOrder } from './order.ts';
import { detectTables } from './table.ts';

export type { Fragment } from './filter.ts';

export type BlockLabel = 'title' | 'sub_title' | 'text' | 'table' | 'page_header' | 'page_footer';

export interface LayoutBlock {
  readonly label: BlockLabel;
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
  /** Lines of a paragraph or heading, top to bottom. */
  readonly lines: readonly string[];
  /** Cell texts, for tables. */
  readonly rows?: readonly (readonly string[])[];
  /** Median line height, for heading detection. */
  readonly lineHeight: number;
}

export interface Row {
  readonly fragments: Fragment[];
  y1: number;
  y2: number;
}

export interface LayoutOptions {
  /**
   * Column gutters (x positions, the fragments' frame) found from whitespace: no line or
   * paragraph is joined across one, and the reading order cuts columns there.
   * @default []
   */
  readonly gutters?: readonly number[];
  /**
   * Height of the page in the fragments' frame. With it, running heads, footers and page numbers
   * at the top and bottom edge are labelled `page_header` / `page_footer` (see `furniture.ts`).
   * @default undefined (no furniture labels)
   */
  readonly pageHeight?: number;
}

/** Lay out a page's fragments into ordered blocks. */
export function layoutPage(fragments: readonly Fragment[], options: Readonly<LayoutOptions> = {}): LayoutBlock[] {
  if (fragments.length === 0) return [];
  const { gutters = [], pageHeight } = options;
  const heights = fragments.map((f) => f.y2 - f.y1);
  const bodyHeight = median(heights);
  const rows = groupRows(fragments);
  const { tables, rest } = detectTables(rows, bodyHeight, gutters);
  const blocks: LayoutBlock[] = [...tables, ...stackParagraphs(rest, gutters)];
  // Gutters can be narrower than a (margin-inflated) line box is tall.
  const ordered = readingOrder(blocks, bodyHeight * 0.4, gutters);
  const labelled = labelHeadings(ordered, bodyHeight);
  return pageHeight === undefined ? labelled : labelFurniture(labelled, bodyHeight, pageHeight);
}

/** Fragments that overlap vertically by more than half the smaller height share a row. */
export function groupRows(fragments: readonly Fragment[]): Row[] {
  const sorted = [...fragments].sort((a, b) => (a.y1 + a.y2) / 2 - (b.y1 + b.y2) / 2);
  const rows: Row[] = [];
  for (const f of sorted) {
    const h = f.y2 - f.y1;
    let target: Row | undefined;
    for (let i = rows.length - 1; i >= 0 && i >= rows.length - 3; i--) {
      const row = rows[i]!;
      const overlap = Math.min(row.y2, f.y2) - Math.max(row.y1, f.y1);
      if (overlap > 0.5 * Math.min(h, row.y2 - row.y1)) {
        target = row;
        break;
      }
    }
    if (target === undefined) {
      rows.push({ fragments: [f], y1: f.y1, y2: f.y2 });
    } else {
      target.fragments.push(f);
    }
  }
  for (const row of rows) row.fragments.sort((a, b) => a.x1 - b.x1);
  return rows;
}

/**
 * Merge fragments of a row that nearly touch (DB sometimes breaks a line at a wide space), then
 * stack lines into paragraphs: a line joins the paragraph right above it when it overlaps it
 * horizontally, starts within about one line of it and has a similar height.
 */
function stackParagraphs(rows: readonly Row[], gutters: readonly number[]): LayoutBlock[] {
  const across = (a: { x1: number; x2: number }, b: { x1: number; x2: number }): boolean => gutters.some((g) => (a.x2 + a.x1) / 2 < g && (b.x1 + b.x2) / 2 > g);
  const lines: Fragment[] = [];
  for (const row of rows) {
    let current: Fragment | undefined;
    for (const f of row.fragments) {
      const h = Math.min(f.y2 - f.y1, current === undefined ? Infinity : current.y2 - current.y1);
      // Boxes carry DB's margin (about a third of their height on each side), so the pieces of
      // a line DB broke at a wide word space overlap or nearly touch. A gap of a quarter of the
      // height between boxes is already half a line height of paper between the inks: a column
      // gutter or a cell boundary, which must stay apart (merging there interleaved two columns).
      if (current !== undefined && f.x1 - current.x2 < 0.25 * h && !across(current, f)) {
        current = {
          text: `${current.text} ${f.text}`,
          x1: current.x1,
          y1: Math.min(current.y1, f.y1),
          x2: Math.max(current.x2, f.x2),
          y2: Math.max(current.y2, f.y2),
          confidence: Math.min(current.confidence, f.confidence),
        };
      } else {
        if (current !== undefined) lines.push(current);
        current = f;
      }
    }
    if (current !== undefined) lines.push(current);
  }
  lines.sort((a, b) => a.y1 - b.y1 || a.x1 - b.x1);
  interface Open {
    lines: Fragment[];
    x1: number;
    y1: number;
    x2: number;
    y2: number;
    last: Fragment;
  }
  const open: Open[] = [];
  for (const line of lines) {
    const h = line.y2 - line.y1;
    let best: Open | undefined;
    let bestGap = Infinity;
    for (const p of open) {
      const last = p.last;
      const lh = last.y2 - last.y1;
      const gap = line.y1 - last.y2;
      const overlap = Math.min(line.x2, last.x2) - Math.max(line.x1, last.x1);
      const similar = Math.max(h, lh) / Math.max(1, Math.min(h, lh)) < 1.35;
      const sameColumn = !gutters.some((g) => line.x1 < g !== last.x1 < g);
      if (
        gap < 0.9 * Math.min(h, lh) &&
        gap > -0.6 * Math.min(h, lh) &&
        overlap > 0.3 * Math.min(line.x2 - line.x1, last.x2 - last.x1) &&
        similar &&
        sameColumn &&
        gap < bestGap
      ) {
        best = p;
        bestGap = gap;
      }
    }
    if (best === undefined) {
      open.push({ lines: [line], x1: line.x1, y1: line.y1, x2: line.x2, y2: line.y2, last: line });
    } else {
      best.lines.push(line);
      best.x1 = Math.min(best.x1, line.x1);
      best.x2 = Math.max(best.x2, line.x2);
      best.y2 = Math.max(best.y2, line.y2);
      best.last = line;
    }
  }
  return open.map((p) => ({
    label: 'text' as const,
    x1: p.x1,
    y1: p.y1,
    x2: p.x2,
    y2: p.y2,
    lines: p.lines.map((l) => l.text),
    lineHeight: median(p.lines.map((l) => l.y2 - l.y1)),
  }));
}

/** Short blocks set clearly larger than the body text are headings; the largest is the title. */
function labelHeadings(blocks: readonly LayoutBlock[], bodyHeight: number): LayoutBlock[] {
  const isHeading = (b: LayoutBlock): boolean =>
    b.label === 'text' && b.lines.length <= 3 && b.lineHeight >= 1.3 * bodyHeight && b.lines.join(' ').length <= 160;
  const headingHeights = blocks.filter(isHeading).map((b) => b.lineHeight);
  const top = Math.max(0, ...headingHeights);
  return blocks.map((b) => {
    if (!isHeading(b)) return b;
    return { ...b, label: b.lineHeight >= 0.9 * top && b.lineHeight >= 1.6 * bodyHeight ? 'title' : 'sub_title' };
  });
}
