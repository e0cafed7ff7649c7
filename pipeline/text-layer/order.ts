/**
 * Reading order by recursive XY-cut: split a region at its widest band of whitespace, either a
 * vertical gutter (columns, read left then right) or a horizontal gap (read top then bottom),
 * and recurse. A title spanning both columns stops any gutter from running through the whole
 * page, so the first cut is horizontal and the title comes first.
 *
 * Guards keep tables and short lines from being read column by column: a gutter must be wider
 * than the widest horizontal gap and leave text at least `minColumnEms` wide on both sides.
 */
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
}

interface Gap {
  readonly size: number;
  readonly at: number;
}

/** The leaf regions of a page, in reading order; each holds its fragments. */
export function readingOrder(fragments: readonly Fragment[], options: Readonly<ReadingOrderOptions>): Fragment[][] {
  const { bodySize, minColumnEms = 7, minGutterEms = 0.9 } = options;
  const out: Fragment[][] = [];
  // An explicit stack instead of recursion: deep pages (thousands of rows) cannot overflow it.
  const stack: Fragment[][] = [[...fragments]];
  while (stack.length > 0) {
    const region = stack.pop() as Fragment[];
    if (region.length <= 1) {
      if (region.length === 1) out.push(region);
      continue;
    }
    const gx = widestGap(region, (f) => f.x0, (f) => f.x1);
    const gy = widestGap(region, (f) => f.top, (f) => f.bottom);
    if (gx !== undefined && gx.size >= minGutterEms * bodySize && (gy === undefined || gx.size >= gy.size)) {
      const left = region.filter((f) => f.x1 <= gx.at);
      const right = region.filter((f) => f.x1 > gx.at);
      if (Math.min(extent(left), extent(right)) >= minColumnEms * bodySize) {
        stack.push(right, left);
        continue;
      }
    }
    if (gy !== undefined) {
      const above = region.filter((f) => f.bottom <= gy.at);
      const below = region.filter((f) => f.bottom > gy.at);
      stack.push(below, above);
      continue;
    }
    out.push(region);
  }
  return mergeFlows(out);
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
    const x0 = Math.min(...leaf.map((f) => f.x0));
    const x1 = Math.max(...leaf.map((f) => f.x1));
    const top = Math.min(...leaf.map((f) => f.top));
    const bottom = Math.max(...leaf.map((f) => f.bottom));
    const overlap = Math.min(x1, box.x1) - Math.max(x0, box.x0);
    if (flow !== undefined && top >= box.bottom - 1 && overlap >= 0.5 * Math.min(x1 - x0, box.x1 - box.x0)) {
      flow.push(...leaf);
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

/** Widest gap of the projection on one axis: one sort, one sweep. */
function widestGap(fragments: readonly Fragment[], start: (f: Fragment) => number, end: (f: Fragment) => number): Gap | undefined {
  const sorted = [...fragments].sort((p, q) => start(p) - start(q));
  let reach = -Infinity;
  let best: Gap | undefined;
  for (const f of sorted) {
    const s = start(f);
    if (reach !== -Infinity && s - reach > 0 && (best === undefined || s - reach > best.size)) {
      best = { size: s - reach, at: (s + reach) / 2 };
    }
    reach = Math.max(reach, end(f));
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
    if (f.table !== undefined) {
      // A table stand-in is a line of its own.
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
  fragments.sort((p, q) => p.x0 - q.x0);
  let main = fragments[0] as Fragment;
  let top = Infinity;
  let bottom = -Infinity;
  for (const f of fragments) {
    if (f.text.length > main.text.length) main = f;
    top = Math.min(top, f.top);
    bottom = Math.max(bottom, f.bottom);
  }
  return {
    fragments,
    text: fragments.map((f) => f.text).join(' '),
    x0: fragments[0]?.x0 ?? 0,
    x1: Math.max(...fragments.map((f) => f.x1)),
    y: main.y,
    top,
    bottom,
    size: main.size,
    font: main.font,
  };
}
