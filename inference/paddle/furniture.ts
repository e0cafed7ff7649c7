/**
 * Page furniture on an OCR page: the rows of blocks at the top and bottom edge that are running
 * heads, footers or page numbers get the `page_header` / `page_footer` label, which the Markdown
 * parser turns into `pageHeader` / `pageFooter` elements, out of the body. Where the rows are is
 * measured here from the line boxes; whether a row is furniture is the rule the text layer uses
 * too (`core/furniture.ts`), with the line box height standing for the type size.
 */
import { FURNITURE_MAX_ROWS, FURNITURE_OUTER, FURNITURE_ZONE, furnitureReason, readsAsPageNumber } from '../../core/furniture.ts';
import type { LayoutBlock } from './layout.ts';
import { median } from './numbers.ts';

/**
 * Gap between line boxes, in body line heights, that sets a margin row apart from the next one.
 * DB's boxes carry about a third of their height of margin on each side, so lines of one
 * paragraph touch or overlap and a blank line between boxes is well under one box height.
 */
const SET_APART = 0.6;
/** Gap, in body line heights, between the margin rows and the body that makes them isolated. */
const ISOLATED = 1.0;

/** Share of the body line height within which a line box counts as body size. */
const SIZE_TOLERANCE = 0.15;

interface BlockRow {
  readonly blocks: LayoutBlock[];
  y1: number;
  y2: number;
}

/**
 * Label the furniture blocks of a page laid out by `layoutPage`.
 *
 * @example
 * labelFurniture(blocks, 24, 3300) // the `400  BRITISH HUSBANDRY.` row at the top → page_header
 */
export function labelFurniture(blocks: readonly LayoutBlock[], bodyHeight: number, pageHeight: number): LayoutBlock[] {
  if (blocks.length < 2 || !(bodyHeight > 0) || !(pageHeight > 0)) return [...blocks];
  const rows = rowsOf(blocks.filter((b) => b.label !== 'table'));
  const furniture = new Map<LayoutBlock, 'page_header' | 'page_footer'>();
  const take = (ordered: readonly BlockRow[], edge: 'top' | 'bottom'): void => {
    const gapAfter = (i: number): number => {
      const row = ordered[i]!;
      const next = ordered[i + 1]!;
      return edge === 'top' ? next.y1 - row.y2 : row.y1 - next.y2;
    };
    let cut = 0;
    for (let i = 0; i < Math.min(FURNITURE_MAX_ROWS, ordered.length - 1); i++) {
      const row = ordered[i]!;
      const inZone = edge === 'top' ? row.y2 <= FURNITURE_ZONE * pageHeight : row.y1 >= (1 - FURNITURE_ZONE) * pageHeight;
      if (!inZone) break;
      if (gapAfter(i) >= SET_APART * bodyHeight || readsAsPageNumber(textOf(row))) cut = i + 1;
    }
    if (cut === 0) return;
    const outer = (row: BlockRow): boolean => (edge === 'top' ? row.y2 <= FURNITURE_OUTER * pageHeight : row.y1 >= (1 - FURNITURE_OUTER) * pageHeight);
    // A row is isolated when it sits in the outer band with a clear gap inward of it (a running
    // head over a heading that is also in the zone), or at the foot when it is the innermost of
    // rows that reach the outer band together and a clear gap parts them from the body (a footer
    // block, a letterhead). Not at the top: there the row under a running head is a heading.
    const group = edge === 'bottom' && outer(ordered[0]!) && gapAfter(cut - 1) >= ISOLATED * bodyHeight;
    const isolated = (i: number): boolean => (outer(ordered[i]!) && gapAfter(i) >= ISOLATED * bodyHeight) || (group && i === cut - 1);
    // Inner rows first: once a row is furniture, every row further out is too.
    let found = false;
    for (let i = cut - 1; i >= 0; i--) {
      const row = ordered[i]!;
      const size = typeSize(median(row.blocks.map((b) => b.lineHeight)), bodyHeight);
      found ||= furnitureReason({ text: textOf(row), edge, size, bodySize: bodyHeight, isolated: isolated(i) }) !== undefined;
      if (!found) continue;
      for (const block of row.blocks) furniture.set(block, edge === 'top' ? 'page_header' : 'page_footer');
    }
  };
  take(rows, 'top');
  take([...rows].reverse(), 'bottom');
  if (furniture.size === 0) return [...blocks];
  return blocks.map((b) => {
    const label = furniture.get(b);
    return label === undefined ? b : { ...b, label };
  });
}

/**
 * A line box's height says the type size only roughly: capitals, descenders and DB's margin move
 * it by a tenth either way. Within {@link SIZE_TOLERANCE} of the body's it counts as body size,
 * so the rule's finer size steps (made for font sizes) only see clearly smaller or bigger type.
 */
function typeSize(height: number, bodyHeight: number): number {
  return Math.abs(height / bodyHeight - 1) <= SIZE_TOLERANCE ? bodyHeight : height;
}

/** Blocks whose boxes overlap vertically by more than half the smaller height share a row. */
function rowsOf(blocks: readonly LayoutBlock[]): BlockRow[] {
  const rows: BlockRow[] = [];
  for (const block of [...blocks].sort((a, b) => a.y1 - b.y1)) {
    const last = rows[rows.length - 1];
    const overlap = last === undefined ? 0 : Math.min(last.y2, block.y2) - Math.max(last.y1, block.y1);
    if (last !== undefined && overlap > 0.5 * Math.min(last.y2 - last.y1, block.y2 - block.y1)) {
      last.blocks.push(block);
      last.y1 = Math.min(last.y1, block.y1);
      last.y2 = Math.max(last.y2, block.y2);
    } else {
      rows.push({ blocks: [block], y1: block.y1, y2: block.y2 });
    }
  }
  for (const row of rows) row.blocks.sort((a, b) => a.x1 - b.x1);
  return rows;
}

function textOf(row: BlockRow): string {
  return row.blocks
    .map((b) => b.lines.join(' '))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}
