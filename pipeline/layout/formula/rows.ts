/**
 * Displays of several lines (`aligned`, `gathered`): rows are split where no full-size glyph or
 * bar covers the height between them (fractions hold their numerator and denominator together
 * through the bar; limits and scripts go to the nearest row), and each row is aligned at its
 * first relation.
 */
import type { Atom, Bar } from './atoms.ts';

export interface Row {
  readonly atoms: Atom[];
  readonly bars: Bar[];
}

/** The rows of a display, top to bottom; one row when nothing separates them. */
export function splitRows(atoms: readonly Atom[], bars: readonly Bar[]): Row[] {
  const size = Math.max(0, ...atoms.filter((a) => !/CMEX/i.test(a.font)).map((a) => a.size));
  if (size === 0) return [{ atoms: [...atoms], bars: [...bars] }];
  const spans: [number, number][] = [];
  for (const a of atoms) {
    if (/CMEX/i.test(a.font)) spans.push([a.y - size, a.y + 1.5 * size]);
    else if (a.size >= 0.9 * size) spans.push([a.y - 0.7 * a.size, a.y + 0.2 * a.size]);
  }
  // A bar binds the lines over and under it.
  for (const b of bars) spans.push([b.y - 0.4 * size, b.y + 0.5 * size]);
  spans.sort((p, q) => p[0] - q[0]);
  const bands: [number, number][] = [];
  for (const s of spans) {
    const last = bands.at(-1);
    if (last !== undefined && s[0] <= last[1] + 0.25 * size) last[1] = Math.max(last[1], s[1]);
    else bands.push([s[0], s[1]]);
  }
  if (bands.length < 2) return [{ atoms: [...atoms], bars: [...bars] }];
  const rowOf = (y: number): number => {
    let best = 0;
    let distance = Infinity;
    bands.forEach(([top, bottom], i) => {
      const d = y < top ? top - y : y > bottom ? y - bottom : 0;
      if (d < distance) [best, distance] = [i, d];
    });
    return best;
  };
  const rows: Row[] = bands.map(() => ({ atoms: [], bars: [] }));
  for (const a of atoms) rows[rowOf(a.y - 0.3 * a.size)]!.atoms.push(a);
  for (const b of bars) rows[rowOf(b.y)]!.bars.push(b);
  return rows.filter((r) => r.atoms.length > 0);
}

const RELATION = new Set([
  '=',
  '<',
  '>',
  '\\leq',
  '\\geq',
  '\\neq',
  '\\approx',
  '\\equiv',
  '\\sim',
  '\\simeq',
  '\\cong',
  '\\propto',
  '\\in',
  '\\subset',
  '\\subseteq',
  '\\to',
  '\\rightarrow',
  '\\Rightarrow',
  '\\Leftrightarrow',
  '\\leftarrow',
  '\\mapsto',
  '\\ll',
  '\\gg',
  '\\le',
  '\\ge',
]);
const TOKEN = /\\[A-Za-z]+|\\.|[{}]|[^\\{}]/g;

/** `a=b` → `a&=b`: the alignment point before the first relation outside braces; undefined without one. */
export function alignAtRelation(latex: string): string | undefined {
  let depth = 0;
  for (const match of latex.matchAll(TOKEN)) {
    const token = match[0];
    if (token === '{') depth++;
    else if (token === '}') depth--;
    else if (depth === 0 && RELATION.has(token)) return `${latex.slice(0, match.index)}&${latex.slice(match.index)}`;
  }
  return undefined;
}
