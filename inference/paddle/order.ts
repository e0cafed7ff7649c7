/**
 * Reading order by recursive XY-cut over blocks: columns (vertical white gaps) are read left to
 * right, bands (horizontal gaps) top to bottom. A full-width title above two columns stops a
 * page-wide column cut, so the page is cut into horizontal strips first; consecutive strips
 * that leave the same vertical gap free are regrouped, so a column is read to its end before the
 * next one starts instead of zig-zagging paragraph by paragraph.
 */

export interface Boxed {
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
}

type Interval = readonly [number, number];

/**
 * Blocks in reading order; `minGap` is the narrowest white gap that separates columns, and a
 * known gutter (x) that no block straddles separates them too, however narrow its white.
 */
export function readingOrder<T extends Boxed>(blocks: readonly T[], minGap: number, gutters: readonly number[] = []): T[] {
  if (blocks.length <= 1) return [...blocks];
  const columns = split(blocks, 'x', minGap, gutters);
  if (columns.length > 1) return columns.flatMap((c) => readingOrder(c, minGap, gutters));
  // Any visible gap between bands counts; a zero-height band gap still separates blocks.
  const strips = split(blocks, 'y', 0);
  if (strips.length === 1) return [...blocks].sort((a, b) => a.y1 - b.y1 || a.x1 - b.x1);
  const recurse = (part: readonly T[]): T[] => readingOrder(part, minGap, gutters);
  const left = Math.min(...blocks.map((b) => b.x1));
  const right = Math.max(...blocks.map((b) => b.x2));
  const groups: T[][][] = [];
  let free: Interval[] = [];
  for (const strip of strips) {
    const gaps = freeIntervals(strip, left, right, minGap);
    const shared = intersect(free, gaps, minGap);
    const current = groups[groups.length - 1];
    if (current !== undefined && shared.length > 0) {
      current.push(strip);
      free = shared;
    } else {
      groups.push([strip]);
      free = gaps;
    }
  }
  if (groups.length === 1) return strips.flatMap((s) => recurse(s));
  return groups.flatMap((g) => (g.length === 1 ? recurse(g[0]!) : recurse(g.flat())));
}

/** Split into runs separated by gaps wider than `minGap` along one axis, in order. */
function split<T extends Boxed>(blocks: readonly T[], axis: 'x' | 'y', minGap: number, gutters: readonly number[] = []): T[][] {
  const lo = (b: Boxed): number => (axis === 'x' ? b.x1 : b.y1);
  const hi = (b: Boxed): number => (axis === 'x' ? b.x2 : b.y2);
  const sorted = [...blocks].sort((a, b) => lo(a) - lo(b));
  const runs: T[][] = [];
  let end = -Infinity;
  for (const b of sorted) {
    const current = runs[runs.length - 1];
    // Boxes keep DB's margin, so a block may reach a little past the gutter line on either side.
    const atGutter = axis === 'x' && gutters.some((g) => end <= g + minGap && lo(b) >= g - minGap);
    if (current === undefined || lo(b) - end > minGap || atGutter) {
      runs.push([b]);
    } else {
      current.push(b);
    }
    end = Math.max(end, hi(b));
  }
  return runs;
}

/** Horizontal intervals of [left, right] that no block of the strip covers. */
function freeIntervals(strip: readonly Boxed[], left: number, right: number, minGap: number): Interval[] {
  const sorted = [...strip].sort((a, b) => a.x1 - b.x1);
  const out: Interval[] = [];
  let cursor = left;
  for (const b of sorted) {
    if (b.x1 - cursor >= minGap) out.push([cursor, b.x1]);
    cursor = Math.max(cursor, b.x2);
  }
  if (right - cursor >= minGap) out.push([cursor, right]);
  return out;
}

function intersect(a: readonly Interval[], b: readonly Interval[], minGap: number): Interval[] {
  const out: Interval[] = [];
  for (const [a1, a2] of a) {
    for (const [b1, b2] of b) {
      const lo = Math.max(a1, b1);
      const hi = Math.min(a2, b2);
      if (hi - lo >= minGap) out.push([lo, hi]);
    }
  }
  return out;
}
