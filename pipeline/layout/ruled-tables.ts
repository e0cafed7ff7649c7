/**
 * Ruled tables: where horizontal and vertical rules cross to form a grid of at least 2×2 cells
 * with text in it, the cells come from the grid, not from alignment. A missing inner rule joins
 * the cells on both sides of it (a spanning header → colspan, a cell over several rows →
 * rowspan). Pages without such a grid are left to the alignment route untouched.
 */
import type { PageRules, Rule } from './rules.ts';
import { ROW_SPANNED, SPANNED } from './table-html.ts';
import type { Fragment } from './types.ts';

/** Rules this close (points) to each other, or reaching this close to a crossing, meet. */
const MEET = 2;
/** Grid lines closer than this are one line (a double border), not a sliver of cells. */
const SAME_LINE = 3;
/** Share of a cell side a rule must cover for the side to count as drawn. */
const COVER = 0.8;
/** Fewest rows and columns of cells for a grid to be a table. */
const MIN_CELLS = 2;
/** Baselines this close (points) are one line of text. */
const SAME_BASELINE = 2;
/** Mean characters per filled cell above which a grid frames prose (a boxed page, a form), as `tables.ts` judges aligned grids. */
const MAX_MEAN_CELL = 60;
/** Horizontal × vertical rules tried for crossings, at most: more is a map or a drawing, left to alignment. */
const MAX_PAIRS = 4_000_000;

interface Grid {
  /** Column boundaries, left to right; row boundaries, top to bottom. */
  readonly xs: number[];
  readonly ys: number[];
  readonly horizontal: Rule[];
  readonly vertical: Rule[];
}

/**
 * Ruled tables among a page's fragments: each becomes one stand-in fragment carrying its cells
 * (as `findPageTables` makes them); the fragments not in any table are returned apart. A grid
 * is left to alignment where a table found by alignment (`aligned`) reaches a line or more above
 * or below it (rules around part of a table only), where words run through its rules (a chart),
 * where a joined cell holds text of several grid rows or columns (ruling of some lines only),
 * and where its cells hold prose.
 *
 * @example
 * const { tables, rest } = findRuledTables(fragments, pdf.readPage(1, pageRules));
 */
export function findRuledTables(
  fragments: readonly Fragment[],
  rules: PageRules | undefined,
  aligned: readonly Fragment[] = [],
): { tables: Fragment[]; rest: Fragment[] } {
  if (
    rules === undefined ||
    rules.horizontal.length < MIN_CELLS + 1 ||
    rules.vertical.length < MIN_CELLS + 1 ||
    rules.horizontal.length * rules.vertical.length > MAX_PAIRS
  ) {
    return { tables: [], rest: [...fragments] };
  }
  const taken = new Set<Fragment>();
  const tables: Fragment[] = [];
  for (const grid of grids(rules)) {
    if (aligned.some((t) => reachesOut(grid, t))) continue;
    const inside = fragments.filter((f) => !taken.has(f) && within(grid, f));
    const cells = cellsOf(splitRows(grid, inside), inside);
    if (cells === undefined) continue;
    for (const f of inside) taken.add(f);
    const first = inside.reduce((a, b) => (b.top < a.top ? b : a));
    tables.push({
      text: '',
      x0: grid.xs[0]!,
      x1: grid.xs.at(-1)!,
      top: grid.ys[0]!,
      bottom: grid.ys.at(-1)!,
      y: first.y,
      size: first.size,
      font: first.font,
      table: cells,
    });
  }
  return { tables, rest: taken.size === 0 ? [...fragments] : fragments.filter((f) => !taken.has(f)) };
}

/** Sets of rules that cross one another, each with its grid lines; those too small for a table are left out. */
function grids(rules: PageRules): Grid[] {
  const all = [...rules.horizontal.map((r) => ({ r, h: true })), ...rules.vertical.map((r) => ({ r, h: false }))];
  const parent = all.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const nh = rules.horizontal.length;
  for (let i = 0; i < nh; i++) {
    const h = rules.horizontal[i]!;
    for (let j = 0; j < rules.vertical.length; j++) {
      const v = rules.vertical[j]!;
      if (crosses(h, v)) parent[find(i)] = find(nh + j);
    }
  }
  const groups = new Map<number, { horizontal: Rule[]; vertical: Rule[] }>();
  all.forEach(({ r, h }, i) => {
    const root = find(i);
    let g = groups.get(root);
    if (g === undefined) groups.set(root, (g = { horizontal: [], vertical: [] }));
    (h ? g.horizontal : g.vertical).push(r);
  });
  const out: Grid[] = [];
  for (const { horizontal, vertical } of groups.values()) {
    const ys = lines(horizontal.map((r) => r.at));
    const xs = lines(vertical.map((r) => r.at));
    if (ys.length >= MIN_CELLS + 1 && xs.length >= MIN_CELLS + 1) out.push({ xs, ys, horizontal, vertical });
  }
  return out;
}

/** Whether a table found by alignment overlaps the grid and runs a line or more beyond it. */
function reachesOut(grid: Grid, table: Fragment): boolean {
  const [x0, x1, top, bottom] = [grid.xs[0]!, grid.xs.at(-1)!, grid.ys[0]!, grid.ys.at(-1)!];
  if (Math.min(x1, table.x1) <= Math.max(x0, table.x0) || Math.min(bottom, table.bottom) <= Math.max(top, table.top)) return false;
  return table.top < top - table.size || table.bottom > bottom + table.size;
}

function crosses(h: Rule, v: Rule): boolean {
  return v.at >= h.from - MEET && v.at <= h.to + MEET && h.at >= v.from - MEET && h.at <= v.to + MEET;
}

/** Positions clustered into grid lines. */
function lines(positions: number[]): number[] {
  const sorted = [...positions].sort((a, b) => a - b);
  const out: number[][] = [];
  for (const p of sorted) {
    const last = out.at(-1);
    if (last !== undefined && p - last.at(-1)! <= SAME_LINE) last.push(p);
    else out.push([p]);
  }
  return out.map((c) => c.reduce((s, p) => s + p, 0) / c.length);
}

function within(grid: Grid, f: Fragment): boolean {
  const cx = (f.x0 + f.x1) / 2;
  const cy = (f.top + f.bottom) / 2;
  return cx > grid.xs[0]! && cx < grid.xs.at(-1)! && cy > grid.ys[0]! && cy < grid.ys.at(-1)!;
}

/** Whether a rule among `rules` at `at` covers most of `[from, to]`. */
function drawn(rules: readonly Rule[], at: number, from: number, to: number): boolean {
  let covered = 0;
  for (const r of rules) {
    if (Math.abs(r.at - at) > SAME_LINE) continue;
    covered += Math.max(0, Math.min(r.to, to) - Math.max(r.from, from));
  }
  return covered >= COVER * (to - from);
}

/**
 * The grid's cells with the text inside them, or `undefined` when it is no table: cells joined
 * by missing rules must make rectangles, and text must fill at least two rows and two columns.
 */
function cellsOf(grid: Grid, inside: readonly Fragment[]): string[][] | undefined {
  const { xs, ys } = grid;
  const rows = ys.length - 1;
  const cols = xs.length - 1;
  if (inside.length === 0) return undefined;
  // Cells joined across missing rules, each region's top-left cell standing for it.
  const owner = Array.from({ length: rows * cols }, (_, i) => i);
  const find = (i: number): number => {
    while (owner[i] !== i) i = owner[i] = owner[owner[i]!]!;
    return i;
  };
  const join = (a: number, b: number): void => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) owner[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (c + 1 < cols && !drawn(grid.vertical, xs[c + 1]!, ys[r]!, ys[r + 1]!)) join(r * cols + c, r * cols + c + 1);
      if (r + 1 < rows && !drawn(grid.horizontal, ys[r + 1]!, xs[c]!, xs[c + 1]!)) join(r * cols + c, (r + 1) * cols + c);
    }
  }
  const regions = new Map<number, { r0: number; r1: number; c0: number; c1: number; n: number }>();
  for (let i = 0; i < rows * cols; i++) {
    const root = find(i);
    const r = Math.floor(i / cols);
    const c = i % cols;
    const g = regions.get(root);
    if (g === undefined) regions.set(root, { r0: r, r1: r, c0: c, c1: c, n: 1 });
    else {
      g.r0 = Math.min(g.r0, r);
      g.r1 = Math.max(g.r1, r);
      g.c0 = Math.min(g.c0, c);
      g.c1 = Math.max(g.c1, c);
      g.n++;
    }
  }
  for (const g of regions.values()) if (g.n !== (g.r1 - g.r0 + 1) * (g.c1 - g.c0 + 1)) return undefined;
  // Text by position: a fragment's runs go to the cells they sit in (a text layer may run two
  // cells' words into one fragment across the rule between them).
  const texts = new Map<number, { y: number; x: number; text: string }[]>();
  /** The grid rows and columns each region's text sits in. */
  const slots = new Map<number, { rows: Set<number>; cols: Set<number> }>();
  for (const f of inside) {
    const cy = (f.top + f.bottom) / 2;
    const crossing = grid.vertical.filter((v) => cy > v.from && cy < v.to);
    const runs = f.pieces !== undefined && f.pieces.length > 1 ? f.pieces : [{ text: f.text, x0: f.x0, x1: f.x1, y: f.y }];
    const pieces = runs.flatMap((p) => splitAtRules(p, crossing, f.size));
    for (const p of pieces) {
      // Words running through a drawn rule are a chart's labels over its grid lines, not cell text.
      if (crossing.some((v) => v.at > p.x0 + MEET && v.at < p.x1 - MEET)) return undefined;
      const c = slot(xs, (p.x0 + p.x1) / 2);
      const r = slot(ys, cy);
      const root = find(r * cols + c);
      let list = texts.get(root);
      if (list === undefined) texts.set(root, (list = []));
      list.push({ y: p.y, x: p.x0, text: p.text.trim() });
      let at = slots.get(root);
      if (at === undefined) slots.set(root, (at = { rows: new Set(), cols: new Set() }));
      at.rows.add(r);
      at.cols.add(c);
    }
  }
  // A joined cell whose text sits in several of the grid's rows or columns is no span: the table
  // rules only some of its lines (rows set apart by space), so alignment must read it.
  for (const at of slots.values()) if (at.rows.size > 1 || at.cols.size > 1) return undefined;
  const filledRows = new Set<number>();
  const filledCols = new Set<number>();
  for (const root of texts.keys()) {
    const g = regions.get(root)!;
    filledRows.add(g.r0);
    filledCols.add(g.c0);
  }
  if (filledRows.size < MIN_CELLS || filledCols.size < MIN_CELLS) return undefined;
  let letters = 0;
  for (const list of texts.values()) for (const t of list) letters += t.text.length;
  // Long cells frame prose, unless every cell of three or more rows is ruled off on its own: a
  // boxed page or a form joins cells, a table of definitions draws each one.
  const everyCellRuled = regions.size === rows * cols && rows >= 3;
  if (letters / texts.size > MAX_MEAN_CELL && !everyCellRuled) return undefined;
  const cells = Array.from({ length: rows }, () => new Array<string>(cols).fill(''));
  for (const [root, g] of regions) {
    const list = texts.get(root) ?? [];
    list.sort((a, b) => (Math.abs(a.y - b.y) > 1 ? a.y - b.y : a.x - b.x));
    for (let r = g.r0; r <= g.r1; r++) {
      for (let c = g.c0; c <= g.c1; c++) cells[r]![c] = r === g.r0 ? SPANNED : ROW_SPANNED;
    }
    cells[g.r0]![g.c0] = list
      .map((t) => t.text)
      .filter((t) => t !== '')
      .join(' ');
  }
  return cells;
}

/**
 * Rows the table sets apart by space inside one ruled band (rules only under the header and
 * around the body): where two or more text lines of the band each reach into two or more
 * columns, the band is cut between those lines, as if the rules were drawn.
 */
function splitRows(grid: Grid, inside: readonly Fragment[]): Grid {
  const { xs, ys } = grid;
  const cuts: number[] = [];
  for (let r = 0; r + 1 < ys.length; r++) {
    const band = inside.filter((f) => slot(ys, (f.top + f.bottom) / 2) === r).sort((a, b) => a.y - b.y);
    const lines: { y: number; top: number; bottom: number; cols: Map<number, string> }[] = [];
    for (const f of band) {
      let last = lines.at(-1);
      if (last === undefined || f.y - last.y > SAME_BASELINE) {
        last = { y: f.y, top: f.top, bottom: f.bottom, cols: new Map() };
        lines.push(last);
      }
      last.top = Math.min(last.top, f.top);
      last.bottom = Math.max(last.bottom, f.bottom);
      for (const p of f.pieces !== undefined && f.pieces.length > 1 ? f.pieces : [f]) {
        const c = slot(xs, (p.x0 + p.x1) / 2);
        last.cols.set(c, `${last.cols.get(c) ?? ''} ${p.text}`.trim());
      }
    }
    // A wrapped cell carries words onto its next line, never a lone figure: two lines that both
    // hold a figure in one column are two rows.
    for (let k = 1; k < lines.length; k++) {
      const above = lines[k - 1]!;
      const below = lines[k]!;
      if (above.cols.size < 2 || below.cols.size < 2) continue;
      if ([...above.cols].some(([c, text]) => FIGURE.test(text) && FIGURE.test(below.cols.get(c) ?? ''))) cuts.push((above.bottom + below.top) / 2);
    }
  }
  if (cuts.length === 0) return grid;
  const from = xs[0]!;
  const to = xs.at(-1)!;
  return {
    xs,
    ys: [...ys, ...cuts].sort((a, b) => a - b),
    vertical: grid.vertical,
    horizontal: [...grid.horizontal, ...cuts.map((at) => ({ at, from, to }))],
  };
}

/**
 * A run cut where a drawn rule passes through one of its spaces: justified cell text set close
 * to the rule (`Number      of` then `Pct` in the next cell) comes as one run across it. Word
 * positions are estimated from the run's width (no glyph boxes here), so a cut is made only at a
 * space within half an em of the rule; a word the rule runs through stays whole (and the grid is
 * refused as before).
 */
function splitAtRules(
  run: { text: string; x0: number; x1: number; y: number },
  rules: readonly { at: number }[],
  size: number,
): { text: string; x0: number; x1: number; y: number }[] {
  const rule = rules.find((v) => v.at > run.x0 + MEET && v.at < run.x1 - MEET);
  if (rule === undefined || !run.text.includes(' ')) return [run];
  const per = (run.x1 - run.x0) / run.text.length;
  let best = -1;
  for (let i = 0; i < run.text.length; i++) {
    if (run.text[i] !== ' ') continue;
    if (best < 0 || Math.abs(run.x0 + (i + 0.5) * per - rule.at) < Math.abs(run.x0 + (best + 0.5) * per - rule.at)) best = i;
  }
  if (Math.abs(run.x0 + (best + 0.5) * per - rule.at) > 0.5 * size) return [run];
  const left = { text: run.text.slice(0, best).trimEnd(), x0: run.x0, x1: rule.at - MEET, y: run.y };
  const right = { text: run.text.slice(best + 1).trimStart(), x0: rule.at + MEET, x1: run.x1, y: run.y };
  return [left, ...splitAtRules(right, rules, size)];
}

/** A cell that is one figure: `1,530`, `-0.4`, `(12)`, `85.1%`, `$ 3.2`. */
const FIGURE = /^[-+\u2212\u2013(]?[$€£]?\s?\d[\d.,\s]*%?\)?$/;

/** The cell index (between boundaries) that `v` falls in. */
function slot(bounds: readonly number[], v: number): number {
  let i = 0;
  while (i < bounds.length - 2 && v > bounds[i + 1]!) i++;
  return i;
}
