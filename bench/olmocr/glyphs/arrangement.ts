/**
 * Whether the glyphs of a reference formula appear in a candidate formula in the same arrangement:
 * every reference glyph maps to a distinct candidate glyph of the same character and typeface, and
 * every pair keeps its relation (left of, right of, above, below). Relations compare ink-box
 * centres, so a delimiter that grows evenly around its centre (`\left(` against `(`) keeps its
 * relations; a relation only breaks when it is clear in one formula (beyond {@link CLEAR}) and
 * absent or reversed in the other (within {@link FAINT}), so small shifts never decide. Glyphs that
 * sit side by side in the reference must have no candidate glyph between them, so `ab` is not
 * found in `a+b`; and numbers are not split, so `5` is not found in `345`.
 */
import type { Glyph } from './glyph.ts';

/** A centre offset beyond this many ems is a clear relation. */
const CLEAR = 0.1;
/** A centre offset below this many ems (or reversed) means the relation is absent. */
const FAINT = 0.04;
/** Backtracking steps before giving up (a page of repeated symbols must not hang the bench). */
const BUDGET = 200_000;

const cx = (g: Glyph): number => (g.left + g.right) / 2;
const cy = (g: Glyph): number => (g.top + g.bottom) / 2;

/** Offsets of b from a's centre: x to the right, y downwards. */
const offset = (a: Glyph, b: Glyph): readonly [number, number] => [cx(b) - cx(a), cy(b) - cy(a)];

/** One axis of one pair: the relation is clear in one and absent or reversed in the other. */
function clash(d: number, e: number): boolean {
  return (d > CLEAR && e < FAINT) || (d < -CLEAR && e > -FAINT) || (e > CLEAR && d < FAINT) || (e < -CLEAR && d > -FAINT);
}

/** Whether two glyphs' ink spans overlap vertically (they share a line). */
const shareLine = (a: Glyph, b: Glyph): boolean => Math.min(a.bottom, b.bottom) > Math.max(a.top, b.top);

/** Whether k sits between a and b on their line (a left of b). */
const between = (k: Glyph, a: Glyph, b: Glyph): boolean => cx(k) > cx(a) + FAINT && cx(k) < cx(b) - FAINT && shareLine(k, a) && shareLine(k, b);

/** The character a glyph draws (its key before the typeface). */
const charOf = (g: Glyph): string => g.key.split('|')[0]!;
const NUMERAL = /^[0-9.,]$/;

/**
 * The numeral glyphs that continue a digit's number on its line: same size, a gap under
 * {@link CLEAR} either side. A number is one token, as in MathML: `5` is not found in `345`.
 */
function numberNeighbours(glyphs: readonly Glyph[], i: number): number[] {
  const a = glyphs[i]!;
  if (!NUMERAL.test(charOf(a))) return [];
  const height = a.bottom - a.top;
  return glyphs.flatMap((b, j) => {
    if (j === i || !NUMERAL.test(charOf(b)) || !shareLine(a, b) || Math.abs(b.bottom - b.top - height) > 0.2 * height) return [];
    const gap = Math.max(b.left - a.right, a.left - b.right);
    return gap < CLEAR ? [j] : [];
  });
}

/** Pairs `[i, j]` of the reference that sit side by side on a line, i left of j, nothing between. */
function sideBySide(glyphs: readonly Glyph[]): [number, number][] {
  const pairs: [number, number][] = [];
  for (const [i, a] of glyphs.entries()) {
    for (const [j, b] of glyphs.entries()) {
      if (cx(b) - cx(a) <= CLEAR || !shareLine(a, b)) continue;
      if (!glyphs.some((k) => between(k, a, b))) pairs.push([i, j]);
    }
  }
  return pairs;
}

/**
 * Whether the reference's glyphs appear in the candidate in the same arrangement (see the file
 * comment). An empty reference never matches.
 *
 * @example
 * sameArrangement(glyphsOf('x^2'), glyphsOf('x^{2}+1')) // true
 * sameArrangement(glyphsOf('x^2'), glyphsOf('x_2')) // false
 */
export function sameArrangement(reference: readonly Glyph[], candidate: readonly Glyph[]): boolean {
  if (reference.length === 0 || reference.length > candidate.length) return false;
  const options = reference.map((r) => candidate.flatMap((c, k) => (c.key === r.key ? [k] : [])));
  if (options.some((o) => o.length === 0)) return false;
  // Most constrained glyphs first: fewer branches near the root of the search.
  const order = reference.map((_, i) => i).sort((a, b) => options[a]!.length - options[b]!.length || cx(reference[a]!) - cx(reference[b]!));
  const neighbours = new Map<number, number[]>();
  for (const [i, j] of sideBySide(reference)) {
    neighbours.set(i, [...(neighbours.get(i) ?? []), j]);
    neighbours.set(j, [...(neighbours.get(j) ?? []), i]);
  }
  const mapped = new Array<number>(reference.length).fill(-1);
  const used = new Set<number>();
  let steps = 0;

  const fits = (i: number, k: number): boolean => {
    const c = candidate[k]!;
    for (const [j, m] of mapped.entries()) {
      if (m < 0) continue;
      const [dx, dy] = offset(reference[j]!, reference[i]!);
      const [ex, ey] = offset(candidate[m]!, c);
      if (clash(dx, ex) || clash(dy, ey)) return false;
    }
    for (const j of neighbours.get(i) ?? []) {
      const m = mapped[j]!;
      if (m < 0) continue;
      const [a, b] = cx(candidate[m]!) < cx(c) ? [candidate[m]!, c] : [c, candidate[m]!];
      if (candidate.some((g) => between(g, a, b))) return false;
    }
    return true;
  };

  // Once all glyphs are placed: no mapped digit may have a number neighbour in the candidate
  // that is not the image of one of its number neighbours in the reference.
  const wholeNumbers = (): boolean =>
    mapped.every((m, i) => {
      const images = new Set(numberNeighbours(reference, i).map((j) => mapped[j]));
      return numberNeighbours(candidate, m).every((k) => images.has(k));
    });

  const search = (depth: number): boolean => {
    if (depth === order.length) return wholeNumbers();
    const i = order[depth]!;
    for (const k of options[i]!) {
      if (++steps > BUDGET) return false;
      if (used.has(k) || !fits(i, k)) continue;
      mapped[i] = k;
      used.add(k);
      if (search(depth + 1)) return true;
      mapped[i] = -1;
      used.delete(k);
    }
    return false;
  };
  return search(0);
}
