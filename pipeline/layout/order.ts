/**
 * Reading order by recursive XY-cut: split a region at its widest band of whitespace, either a
 * vertical gutter (columns, read left then right) or a horizontal gap (read top then bottom),
 * and recurse. A title spanning both columns stops any gutter from running through the whole
 * page, so the first cut is horizontal and the title comes first.
 *
 * Guards keep tables and short lines from being read column by column: a gutter must be wider
 * than the widest horizontal gap and leave text at least `minColumnEms` wide on both sides.
 */
import { isRtlDominant } from './bidi.ts';
import type { Fragment, Line } from './types.ts';

export interface ReadingOrderOptions {
  /** The page's body font size in points. */
  readonly bodySize: number;
  /**
   * Narrowest column, in multiples of the body size, that a vertical cut may leave.
   * @default 7
   */
  readonly minColumnEms?: number;
  /**
   * Narrowest gutter, in multiples of the body size.
   * @default 0.9
   */
  readonly minGutterEms?: number;
  /**
   * Column gutters known beforehand (x positions): an OCR engine finds them from the page's
   * whitespace, where line boxes (which carry a margin of their own) may touch across a narrow
   * gutter and leave the projection no gap. A region with text on both sides of one and nothing
   * running across it is cut there first.
   * @default []
   */
  readonly gutters?: readonly number[];
}

interface Gap {
  readonly size: number;
  readonly at: number;
}

/** A region kept sorted both ways, so each cut is a linear sweep and a filter (no sorting). */
interface Region {
  /** By left edge. */
  readonly byX: Fragment[];
  /** By top edge. */
  readonly byY: Fragment[];
}

/** The leaf regions of a page, in reading order; each holds its fragments. */
export function readingOrder(fragments: readonly Fragment[], options: Readonly<ReadingOrderOptions>): Fragment[][] {
  const { bodySize, minColumnEms = 7, minGutterEms = 0.9, gutters = [] } = options;
  const out: Fragment[][] = [];
  // An explicit stack instead of recursion: deep pages (thousands of rows) cannot overflow it.
  const stack: Region[] = [{ byX: [...fragments].sort((p, q) => p.x0 - q.x0), byY: [...fragments].sort((p, q) => p.top - q.top) }];
  while (stack.length > 0) {
    const region = stack.pop() as Region;
    if (region.byX.length <= 1) {
      if (region.byX.length === 1) out.push(region.byX);
      continue;
    }
    const known = gutters.length === 0 ? undefined : knownGutter(region, gutters, bodySize, minColumnEms * bodySize);
    if (known !== undefined) {
      const [left, right] = split(region, (f) => (f.x0 + f.x1) / 2 < known);
      stack.push(right, left);
      continue;
    }
    const gx = widestGap(region.byX, true);
    const gy = widestGap(region.byY, false);
    if (gx !== undefined && gx.size >= minGutterEms * bodySize && (gy === undefined || gx.size >= gy.size)) {
      const [left, right] = split(region, (f) => f.x1 <= gx.at);
      if (Math.min(extent(left.byX), extent(right.byX)) >= minColumnEms * bodySize) {
        stack.push(right, left);
        continue;
      }
    }
    if (gy !== undefined) {
      const [above, below] = split(region, (f) => f.bottom <= gy.at);
      stack.push(below, above);
      continue;
    }
    out.push(region.byX);
  }
  return mergeFlows(out);
}

/**
 * The first known gutter with columns of text on both sides of it in this region and no
 * fragment running across it by more than a body size either way (a title, a full-width line).
 */
function knownGutter(region: Region, gutters: readonly number[], bodySize: number, minColumn: number): number | undefined {
  for (const g of gutters) {
    let leftX0 = Infinity;
    let rightX1 = -Infinity;
    let across = false;
    for (const f of region.byX) {
      if (f.x0 < g - bodySize && f.x1 > g + bodySize) {
        across = true;
        break;
      }
      if ((f.x0 + f.x1) / 2 < g) leftX0 = Math.min(leftX0, f.x0);
      else rightX1 = Math.max(rightX1, f.x1);
    }
    if (!across && g - leftX0 >= minColumn && rightX1 - g >= minColumn) return g;
  }
  return undefined;
}

/** Both orders of a region filtered by one test: those that pass, then the rest. */
function split(region: Region, test: (f: Fragment) => boolean): [Region, Region] {
  const yes: Region = { byX: [], byY: [] };
  const no: Region = { byX: [], byY: [] };
  for (const f of region.byX) (test(f) ? yes : no).byX.push(f);
  for (const f of region.byY) (test(f) ? yes : no).byY.push(f);
  return [yes, no];
}

/**
 * XY-cut leaves are often single lines; consecutive leaves stacked in the same column are one
 * flow of text, so paragraphs and tables can span them. A leaf joins the flow above when it
 * starts below it and their x-ranges overlap by half the narrower one.
 */
function mergeFlows(leaves: readonly Fragment[][]): Fragment[][] {
  const flows: Fragment[][] = [];
  let flow: Fragment[] | undefined;
  let box = { x0: 0, x1: 0, bottom: 0 };
  for (const leaf of leaves) {
    let x0 = Infinity;
    let x1 = -Infinity;
    let top = Infinity;
    let bottom = -Infinity;
    for (const f of leaf) {
      x0 = Math.min(x0, f.x0);
      x1 = Math.max(x1, f.x1);
      top = Math.min(top, f.top);
      bottom = Math.max(bottom, f.bottom);
    }
    const overlap = Math.min(x1, box.x1) - Math.max(x0, box.x0);
    if (flow !== undefined && top >= box.bottom - 1 && overlap >= 0.5 * Math.min(x1 - x0, box.x1 - box.x0)) {
      for (const f of leaf) flow.push(f);
      box = { x0: Math.min(box.x0, x0), x1: Math.max(box.x1, x1), bottom: Math.max(box.bottom, bottom) };
      continue;
    }
    flow = [...leaf];
    flows.push(flow);
    box = { x0, x1, bottom };
  }
  return flows;
}

function extent(fragments: readonly Fragment[]): number {
  let x0 = Infinity;
  let x1 = -Infinity;
  for (const f of fragments) {
    x0 = Math.min(x0, f.x0);
    x1 = Math.max(x1, f.x1);
  }
  return x1 - x0;
}

/** Widest gap of the projection on one axis, over fragments sorted by their start on it: one sweep. */
function widestGap(sorted: readonly Fragment[], horizontal: boolean): Gap | undefined {
  let reach = -Infinity;
  let best: Gap | undefined;
  for (const f of sorted) {
    const s = horizontal ? f.x0 : f.top;
    if (reach !== -Infinity && s - reach > 0 && (best === undefined || s - reach > best.size)) {
      best = { size: s - reach, at: (s + reach) / 2 };
    }
    reach = Math.max(reach, horizontal ? f.x1 : f.bottom);
  }
  return best;
}

/** Fragments of one region grouped into lines (by baseline overlap), top to bottom. */
export function toLines(fragments: readonly Fragment[]): Line[] {
  const sorted = [...fragments].sort((p, q) => p.y - q.y || p.x0 - q.x0);
  const groups: Fragment[][] = [];
  let group: Fragment[] = [];
  let ref: Fragment | undefined;
  for (const f of sorted) {
    if (f.table !== undefined || f.formula !== undefined) {
      // A table or formula stand-in is a line of its own.
      if (group.length > 0) groups.push(group);
      groups.push([f]);
      group = [];
      ref = undefined;
      continue;
    }
    // Spans from baseline and size, not the fragment box: a drop cap's box covers two lines.
    const overlap = ref === undefined ? 0 : Math.min(ref.y + 0.22 * ref.size, f.y + 0.22 * f.size) - Math.max(ref.y - 0.78 * ref.size, f.y - 0.78 * f.size);
    if (ref !== undefined && overlap >= 0.5 * Math.min(ref.size, f.size)) {
      group.push(f);
      if (f.size > ref.size) ref = f;
      continue;
    }
    if (group.length > 0) groups.push(group);
    group = [f];
    ref = f;
  }
  if (group.length > 0) groups.push(group);
  return groups.map(lineOf);
}

export function lineOf(fragments: Fragment[]): Line {
  if (fragments.length > 1) fragments.sort((p, q) => p.x0 - q.x0);
  let main = fragments[0] as Fragment;
  let top = Infinity;
  let bottom = -Infinity;
  let x1 = -Infinity;
  let text = '';
  for (let i = 0; i < fragments.length; i++) {
    const f = fragments[i] as Fragment;
    if (f.text.length > main.text.length) main = f;
    top = Math.min(top, f.top);
    bottom = Math.max(bottom, f.bottom);
    x1 = Math.max(x1, f.x1);
    text = i === 0 ? f.text : `${text} ${f.text}`;
  }
  // A right-to-left line reads its pieces from the right (each piece is already in logical order).
  if (fragments.length > 1 && isRtlDominant(text))
    text = fragments
      .map((f) => f.text)
      .reverse()
      .join(' ');
  return { fragments, text, x0: fragments[0]?.x0 ?? 0, x1, y: main.y, top, bottom, size: main.size, font: main.font };
}
