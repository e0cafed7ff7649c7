/**
 * The layout stage: one positioned page (`page.ts`) → blocks in reading order, as Markdown with
 * grounding boxes. Furniture first (the margin rows a caller's model calls headers and footers),
 * then display formulas, sideways headers, ruled and aligned tables, reading order across
 * columns, and per region the blocks (headings, lists, paragraphs, code, tables).
 */

import { toBlocks } from './blocks.ts';
import { findFormulaBands } from './formula/index.ts';
import { imageRegions } from './image-regions.ts';
import { blockEntries } from './markdown.ts';
import { lineOf, readingOrder, toLines } from './order.ts';
import type { PositionedPage } from './page.ts';
import { pageStyle } from './page.ts';
import { findRuledTables } from './ruled-tables.ts';
import { withSidewaysHeaders } from './sideways-headers.ts';
import { findPageTables } from './tables.ts';
import type { FormulaRegion, Fragment, Block as LayoutBlock, Line, TextLayerRegion } from './types.ts';

/** A row at the top or bottom edge of a page that may be furniture. */
export interface FurnitureRow {
  readonly line: Line;
  readonly edge: 'top' | 'bottom';
}

export interface LayoutPageOptions<R extends FurnitureRow = FurnitureRow> {
  /**
   * The page's margin rows, innermost last from each edge, and the decision on each (a reason
   * when it is furniture): the model that decides sees the whole document (`pipeline/text-layer/furniture.ts`).
   * @default undefined (no furniture)
   */
  readonly furniture?: { readonly rows: readonly R[]; readonly decide: (row: R) => string | undefined };
  /**
   * Keep margin rows that belong to a table found on the page, or head one just below them (a
   * table's header row at the top of a page is no running head).
   * @default true
   */
  readonly keepTableRows?: boolean;
}

/** What the layout stage makes of a page. */
export interface LaidOutPage {
  /** Markdown; every block preceded by a `<|ref|>label<|/ref|><|det|>[[…]]<|/det|>` line (0–999 grid). */
  readonly markdown: string;
  readonly blocks: readonly LayoutBlock[];
  /** Header and footer blocks found. */
  readonly furnitureBlocks: number;
  /** Regions worth reading from the pixels (images with words, formula blocks without LaTeX). */
  readonly regions: readonly TextLayerRegion[];
  /** Display formulas found, sure or not. */
  readonly formulas: readonly FormulaRegion[];
}

/** LaTeX of a stacked formula: no table cell reads like this. */
/** Gap, in type sizes, from which two pieces of a header or footer row are two texts (a word space is about a quarter). */
const FURNITURE_PIECE_GAP = 2;
const STRUCTURED = /\\(?:frac|sqrt|sum|prod|coprod|int|iint|oint|big[a-z]+|lim|limsup|liminf|overline)\b/;

/**
 * Lay out one positioned page.
 *
 * @example
 * const { markdown } = layoutPage({ pageNumber: 1, origin: 'ocr', width: 612, height: 792, fragments, rules, images: [] });
 */
export function layoutPage<R extends FurnitureRow>(positioned: PositionedPage, options: Readonly<LayoutPageOptions<R>> = {}): LaidOutPage {
  const { width, height, frame, rules, images } = positioned;
  const { furniture: margin, keepTableRows = true } = options;
  // Text wholly off the page (parked left of the media box, above or below it) is never seen by
  // a reader: it stays out of the body and out of the headers and footers.
  const frameWidth = frame?.width ?? width;
  const frameHeight = frame?.height ?? height;
  const onPage = (f: Fragment): boolean => f.x1 > 0 && f.x0 < frameWidth && f.bottom > 0 && f.top < frameHeight;
  const fragments = positioned.fragments.every(onPage) ? positioned.fragments : positioned.fragments.filter(onPage);
  const style = positioned.style ?? pageStyle(fragments);
  const runs = positioned.runs ?? [];
  const turned = positioned.turned ?? [];
  const furniture = new Set<Fragment>();
  const headers: LayoutBlock[] = [];
  const footers: LayoutBlock[] = [];
  if (margin !== undefined && margin.rows.length > 0) {
    // The table pass costs: it runs only once a row of several pieces would go as furniture.
    let inTables: Set<Fragment> | undefined;
    const headsOrInTable = (row: R): boolean =>
      keepTableRows &&
      row.line.fragments.length >= 2 &&
      row.line.fragments.some((f) => (inTables ??= tableFragments(fragments, rules, margin.rows, style.bodySize)).has(f));
    // Inner rows first: once a row is furniture, every row further out is too.
    const furnitureEdges = new Set<string>();
    for (const row of [...margin.rows].reverse()) {
      if (!row.line.fragments.some(onPage)) continue;
      const why = margin.decide(row) ?? (furnitureEdges.has(row.edge) ? 'outside-furniture' : undefined);
      if (why === undefined || headsOrInTable(row)) continue;
      furnitureEdges.add(row.edge);
      for (const f of row.line.fragments) furniture.add(f);
      const label = row.edge === 'top' ? 'page_header' : 'page_footer';
      const blocks: LayoutBlock[] = apart(row.line).map((line) => ({ label, lines: [line] }));
      if (row.edge === 'top') headers.unshift(...blocks);
      else footers.push(...blocks);
    }
  }
  const page = furniture.size === 0 ? fragments : fragments.filter((f) => !furniture.has(f));
  // Display formulas before tables: their stacked rows (fractions, limits) align like cells.
  // Only the ones read without doubt stand in for their fragments; the others keep their text.
  // A band inside a table of many rows is a cell (`≥ 65`, `(n = 918)`), not a display formula,
  // unless it has a formula's structure or a whole equation number (a page of display formulas
  // reads as a table too; a share in a table cell is a decimal, `(9.4)`).
  // The table pass is the costliest step of a page: it runs on the page once, and that result
  // serves the table pass below too when no formula band or sideways header changed the fragments.
  let pageTables: ReturnType<typeof findPageTables> | undefined;
  const tablesOfPage = (): ReturnType<typeof findPageTables> => (pageTables ??= findPageTables(page, rules));
  const candidates = findFormulaBands(page, runs, rules.horizontal, style.bodySize);
  const bigTables = candidates.length === 0 ? [] : tablesOfPage().tables.filter((t) => (t.table?.length ?? 0) >= 6);
  const inBigTable = (f: Fragment): boolean => bigTables.some((t) => f.x0 >= t.x0 - 1 && f.x1 <= t.x1 + 1 && f.top >= t.top - 1 && f.bottom <= t.bottom + 1);
  const found = candidates.filter((b) => STRUCTURED.test(b.reading.latex) || /^\d+[a-z]?$/.test(b.number ?? '') || !inBigTable(b.standIn));
  // A doubtful reading that KaTeX still accepts stands in too, without its LaTeX: its text stays in
  // the Markdown and its box goes to the formula model (`pipeline/regions`), instead of the
  // line-by-line reader writing a worse guess from the same glyphs.
  const bands = found.filter((b) => !b.reading.unsure || (b.reading.valid && b.reading.confidence >= 0.5));
  const inBands = new Set(bands.flatMap((b) => b.members));
  const body = bands.length === 0 ? page : [...page.filter((f) => !inBands.has(f)), ...bands.map((b) => b.standIn)];
  const blocks: LayoutBlock[] = [...headers];
  // Where the page draws a table's cells they beat alignment, unless the aligned table reaches
  // out of the grid (rules around part of a table only: its body, its group rows).
  // Column headers set sideways join their tables' header rows; other sideways text stays out.
  const headed = withSidewaysHeaders(body, turned, rules);
  const aligned = headed === page ? tablesOfPage() : findPageTables(headed, rules);
  const ruled = findRuledTables(headed, rules, aligned.tables);
  const { tables, rest } = ruled.tables.length === 0 ? aligned : findPageTables(ruled.rest, rules);
  for (const region of readingOrder([...rest, ...ruled.tables, ...tables], { bodySize: style.bodySize, gutters: positioned.gutters ?? [] })) {
    blocks.push(...toBlocks(toLines(region), style));
  }
  blocks.push(...footers);
  const toPage = frame?.toPage;
  const formulas = found.map((b): FormulaRegion => {
    const { x0, top, x1, bottom } = b.members
      .filter((m) => b.number === undefined || !m.text.includes(`(${b.number})`))
      .reduce((box, m) => ({ x0: Math.min(box.x0, m.x0), top: Math.min(box.top, m.top), x1: Math.max(box.x1, m.x1), bottom: Math.max(box.bottom, m.bottom) }), {
        x0: Infinity,
        top: Infinity,
        x1: -Infinity,
        bottom: -Infinity,
      });
    const box = toPage === undefined ? ([x0, top, x1, bottom] as const) : toPage([x0, top, x1, bottom]);
    return { ...b.reading, box, ...(b.number === undefined ? {} : { number: b.number }) };
  });
  const entries = blockEntries(blocks, width, height, toPage);
  const markdown = entries.map((entry) => entry.markdown).join('\n\n');
  const regions: TextLayerRegion[] = [
    ...imageRegions(images, fragments, frameWidth, frameHeight).map((region) => (toPage === undefined ? region : { ...region, box: toPage([...region.box]) })),
    // A formula block the glyphs could not be rebuilt into LaTeX from: its pixels may still be read.
    ...entries
      .filter((entry) => entry.block.label === 'equation' && entry.block.latex === undefined)
      .map((entry) => ({ kind: 'formula' as const, box: entry.box, block: entry.markdown, display: true })),
  ];
  return { markdown, blocks, furnitureBlocks: headers.length + footers.length, regions, formulas };
}

/**
 * The fragments of the tables found on the whole page, drawn or aligned, and of the margin rows
 * that head one: a row of two or more pieces within a table's width, no more pieces than it has
 * columns, just above it (a column-header row set apart from the figures by a gap or a rule).
 */
/**
 * A margin row's pieces set far apart (a running head's title on the left and its page number on
 * the right; a slide footer's company, date and number) are separate texts, each its own header
 * or footer: joined, they would read as one string no page shows.
 */
function apart(line: Line): Line[] {
  if (line.fragments.length < 2) return [line];
  const sorted = [...line.fragments].sort((p, q) => p.x0 - q.x0);
  const groups: Fragment[][] = [[sorted[0]!]];
  for (let i = 1; i < sorted.length; i++) {
    const before = sorted[i - 1]!;
    const here = sorted[i]!;
    if (here.x0 - before.x1 > FURNITURE_PIECE_GAP * Math.max(before.size, here.size)) groups.push([here]);
    else groups.at(-1)!.push(here);
  }
  return groups.length === 1 ? [line] : groups.map(lineOf);
}

function tableFragments(fragments: readonly Fragment[], rules: PositionedPage['rules'], rows: readonly FurnitureRow[], bodySize: number): Set<Fragment> {
  const out = new Set<Fragment>();
  const aligned = findPageTables(fragments, rules);
  const ruled = findRuledTables(fragments, rules, aligned.tables);
  const tables = [...aligned.tables, ...ruled.tables];
  if (tables.length === 0) return out;
  for (const f of fragments) {
    if (tables.some((t) => f.x0 >= t.x0 - 1 && f.x1 <= t.x1 + 1 && f.top >= t.top - 1 && f.bottom <= t.bottom + 1)) out.add(f);
  }
  for (const row of rows) {
    const pieces = row.line.fragments;
    if (pieces.length < 2) continue;
    const heads = tables.some((t) => {
      const columns = Math.max(0, ...(t.table ?? []).map((r) => r.length));
      const near = row.edge === 'top' ? t.top - row.line.bottom : row.line.top - t.bottom;
      return near >= -1 && near <= 4 * bodySize && pieces.length <= columns && pieces.every((f) => f.x0 >= t.x0 - bodySize && f.x1 <= t.x1 + bodySize);
    });
    if (heads) for (const f of pieces) out.add(f);
  }
  return out;
}
