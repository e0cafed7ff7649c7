/**
 * Tables ruled only horizontally (booktabs: a rule over and under the table, one under the
 * header, short rules under group headers): the short rules say which sub-columns a group
 * header spans, and the rule under the header says where the header ends, better than text
 * alignment can.
 */
import type { Rule } from './rules.ts';
import { SPANNED } from './table-html.ts';
import type { GridRow } from './table-spans.ts';

/** Share of the table's width a rule must cover to be a full rule (top, mid, bottom), not a group's. */
const FULL = 0.8;
/** Points a rule may sit beyond the rows' text, or a column's text beyond a short rule's ends. */
const SLACK = 3;

/** The horizontal rules that sit between two rows of the table and inside its width. */
export function rulesBetweenRows(rows: readonly GridRow[], horizontal: readonly Rule[], x0: number, x1: number): { after: number; rule: Rule }[] {
  const out: { after: number; rule: Rule }[] = [];
  for (const rule of horizontal) {
    if (rule.to < x0 - SLACK || rule.from > x1 + SLACK) continue;
    for (let r = 0; r + 1 < rows.length; r++) {
      if (rule.at > rows[r]!.line.bottom - 1 && rule.at < rows[r + 1]!.line.top + 1) out.push({ after: r, rule });
    }
  }
  return out;
}

/**
 * Rows of the header where a full rule runs under one of the first rows (the booktabs mid
 * rule), or `undefined` where no such rule is drawn.
 */
export function headerEnd(between: readonly { after: number; rule: Rule }[], x0: number, x1: number, rows: number): number | undefined {
  const full = between.filter(({ rule }) => rule.to - rule.from >= FULL * (x1 - x0)).map(({ after }) => after + 1);
  const first = Math.min(...full);
  return Number.isFinite(first) && first <= Math.min(4, rows - 1) ? first : undefined;
}

/**
 * Group headers over short rules: in the row right above a short rule, the one filled cell
 * among the columns whose text lies over the rule spans those columns.
 *
 * @example
 * spanOverShortRules(rows, between, columnBounds, x0, x1) // `Accuracy` over `Train | Test` → colspan 2
 */
export function spanOverShortRules(
  rows: GridRow[],
  between: readonly { after: number; rule: Rule }[],
  columns: readonly { x0: number; x1: number }[],
  x0: number,
  x1: number,
): void {
  for (const { after, rule } of between) {
    if (rule.to - rule.from >= FULL * (x1 - x0)) continue;
    const row = rows[after]!;
    // Columns whose centre lies over the rule (its ends are trimmed short of the text).
    const under = columns.map((c, k) => ((c.x0 + c.x1) / 2 >= rule.from - SLACK && (c.x0 + c.x1) / 2 <= rule.to + SLACK ? k : -1)).filter((k) => k > 0);
    if (under.length < 2 || under.at(-1)! - under[0]! + 1 !== under.length) continue;
    const filledAt = under.filter((k) => row.cells[k] !== '' && row.cells[k] !== SPANNED);
    if (filledAt.length !== 1 || row.cells[under[0]!] === SPANNED) continue;
    const from = filledAt[0]!;
    const first = under[0]!;
    row.cells[first] = row.cells[from]!;
    row.extents[first] = row.extents[from];
    for (const k of under.slice(1)) row.cells[k] = SPANNED;
  }
}
