/**
 * Column headers set sideways (a quarter turn, to keep narrow columns narrow) as cells of the
 * table under them. PDFium reads such text as characters that are not horizontal, which
 * `page-text.ts` keeps apart from the runs; left there, a table loses its header cells.
 *
 * A sideways piece whose box stands over a table's columns, in its header band (from just above
 * the table down into its top rows) or anywhere inside a ruled grid, becomes one upright
 * fragment on the header row it shares (or on a row of its own just above the table), over the
 * columns it stands on; the table passes then place it like any other cell. Pieces anywhere
 * else (a margin stamp, an axis label) stay out of the body, as before.
 */

import { findRuledTables } from './ruled-tables.ts';
import type { PageRules } from './rules.ts';
import { findPageTables } from './tables.ts';
import type { Fragment, SidewaysPiece } from './types.ts';

/** Share of a table's height, from its top, that its header rows may take. */
const HEADER_SHARE = 0.35;
/** How far above a table's top, in the table's text sizes, a sideways header may end. */
const ABOVE_TABLE = 2;
/** A sideways piece longer than this many characters is prose or a stamp, not a header. */
const MAX_HEADER_CHARS = 60;

type Table = Fragment & { ruled: boolean };

/**
 * `fragments` with the sideways pieces that head a table's columns added as upright fragments.
 *
 * @example
 * const body = withSidewaysHeaders(fragments, pageText.turned, rules);
 * findPageTables(body, rules); // the header row now holds `Procedure` over its column
 */
export function withSidewaysHeaders(fragments: readonly Fragment[], pieces: readonly SidewaysPiece[], rules: PageRules): readonly Fragment[] {
  const candidates = pieces.filter((p) => p.text.length <= MAX_HEADER_CHARS);
  if (candidates.length === 0) return fragments;
  const aligned = findPageTables(fragments, rules).tables;
  const ruled = findRuledTables(fragments, rules, aligned).tables;
  const tables: Table[] = [...ruled.map((t) => ({ ...t, ruled: true })), ...aligned.map((t) => ({ ...t, ruled: false }))];
  if (tables.length === 0) return fragments;
  const placed: { piece: SidewaysPiece; table: Table }[] = [];
  for (const piece of candidates) {
    const table = tables.find((t) => heads(piece, t));
    if (table !== undefined) placed.push({ piece, table });
  }
  if (placed.length === 0) return fragments;
  const added = placed.map(({ piece, table }) => upright(piece, table, fragments, placed));
  return [...fragments, ...added];
}

/**
 * Where the piece stands across the page: its lower end, over the column it heads. A sideways
 * piece is as narrow as a line anyway; one at a slant leans over the next columns from there.
 */
export function footprint(piece: SidewaysPiece): { x0: number; x1: number } {
  const rad = (piece.turn * Math.PI) / 180;
  const cos = Math.cos(rad);
  const width = Math.min(piece.x1 - piece.x0, 1.2 * piece.size);
  if (Math.abs(cos) < 0.2) return { x0: piece.x0, x1: piece.x1 };
  // Rising (y falls as it reads): the start is the lower end; falling: the end.
  const startLeft = cos > 0;
  const lowerLeft = Math.sin(rad) < 0 ? startLeft : !startLeft;
  return lowerLeft ? { x0: piece.x0, x1: piece.x0 + width } : { x0: piece.x1 - width, x1: piece.x1 };
}

/** The piece stands over the table's columns, in its header band (or anywhere in a ruled grid). */
function heads(piece: SidewaysPiece, table: Table): boolean {
  const foot = footprint(piece);
  const mid = (foot.x0 + foot.x1) / 2;
  if (mid < table.x0 - piece.size || mid > table.x1 + piece.size) return false;
  if (table.ruled) return piece.top >= table.top - 1 && piece.bottom <= table.bottom + 1;
  const centre = (piece.top + piece.bottom) / 2;
  return piece.bottom >= table.top - ABOVE_TABLE * table.size && centre <= table.top + HEADER_SHARE * (table.bottom - table.top);
}

/**
 * The piece as an upright fragment over its own columns, on the baseline of the lowest header
 * line it stands beside (header cells are set to share a bottom line); with no such line, on
 * the lowest bottom of the sideways headers of its table that overlap it, so they form one row.
 */
function upright(piece: SidewaysPiece, table: Table, fragments: readonly Fragment[], placed: readonly { piece: SidewaysPiece; table: Table }[]): Fragment {
  const foot = footprint(piece);
  const beside = fragments.filter(
    (f) => f.x1 > table.x0 - 1 && f.x0 < table.x1 + 1 && f.y >= piece.top && f.y <= piece.bottom + 0.5 * f.size && !(f.x1 > foot.x0 && f.x0 < foot.x1),
  );
  const size = beside.length > 0 ? Math.max(...beside.map((f) => f.size)) : piece.size;
  let y: number;
  if (beside.length > 0) {
    y = Math.max(...beside.map((f) => f.y));
  } else {
    const row = placed.filter((p) => p.table === table && p.piece.top < piece.bottom && p.piece.bottom > piece.top);
    y = Math.max(...row.map((p) => p.piece.bottom));
  }
  return { text: piece.text, x0: foot.x0, x1: foot.x1, y, top: y - size, bottom: y + 0.2 * size, size, font: piece.font };
}
