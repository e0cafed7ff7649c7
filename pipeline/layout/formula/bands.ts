/**
 * Display formulas among a page's fragments, before tables and reading order see them: a band of
 * fragments that read as mathematics (math fonts or symbols, no prose words), seeded by one with a
 * relation or a big operator and grown through the stacked rows near it (numerators, denominators,
 * limits, scripts), within its column. An equation number at the right, `(3)`, is kept out of the
 * formula. A band read without doubt becomes one stand-in fragment carrying its LaTeX; an unsure
 * one is left as it was (its text stays) and reported, for the formula model to read.
 */

import { OPERATOR_NAMES } from '../../math-symbols/index.ts';
import type { Rule } from '../rules.ts';
import type { Fragment, Run } from '../types.ts';
import type { Atom, Bar } from './atoms.ts';
import { layoutLatex } from './layout.ts';
import { type FormulaReading, toReading } from './reading.ts';
import { MATH_FONT } from './symbols.ts';

export interface FormulaBand {
  /** The stand-in: one fragment over the band, `formula` set. */
  readonly standIn: Fragment;
  /** The fragments it replaces (the equation number among them). */
  readonly members: readonly Fragment[];
  readonly reading: FormulaReading;
  /** `(3)` → `3`. */
  readonly number?: string;
}

const EQUATION_NUMBER = /^\(\d{1,3}(?:\.\d{1,3})?[a-z]?\)$/;
const RELATION = /[=<>≈≠≤≥∝≡≃≅∼≪≫∈⊂⊆→⇒⇔↦]/u;
const BIG = /[∫∑∏∐⋃⋂⨁⨂]/u;
const SIGNAL = /[=<>+−^_∫∑∏√∇∂∞×⋅÷±∓≤≥≠≈≡∝∈⊂∪∩∀∃→⇒α-ωΓ-Ω′]/u;
/** Words a formula may hold: function names and the short words of `cases`. */
const FORMULA_WORDS = new Set([...OPERATOR_NAMES, 'for', 'and', 'if', 'otherwise', 'else']);

function prose(f: Fragment): boolean {
  const words = (text: string): boolean => (text.match(/\p{L}{3,}/gu) ?? []).some((w) => !FORMULA_WORDS.has(w.toLowerCase()));
  // Letters in a math font are variables side by side (`gdx`), not words.
  if (f.pieces?.some((p) => p.font !== undefined)) return f.pieces.some((p) => !MATH_FONT.test(p.font ?? '') && words(p.text));
  return !MATH_FONT.test(f.font) && words(f.text);
}

function mathy(f: Fragment, bodySize: number): boolean {
  if (prose(f) || EQUATION_NUMBER.test(f.text.trim())) return false;
  // A short piece (a numerator `4`, a limit `n`) belongs to the formula it sits next to.
  if (f.text.replace(/\s/g, '').length <= 3) return true;
  if ((f.text.match(/\p{L}+/gu) ?? []).some((w) => OPERATOR_NAMES.has(w))) return true;
  return MATH_FONT.test(f.font) || SIGNAL.test(f.text) || f.size < 0.85 * bodySize || (f.pieces?.some((p) => Math.abs(p.y - f.y) > 0.15 * f.size) ?? false);
}

/** Where a band starts: a relation, a big operator, a root or scripts, or an equation number beside it. */
const seed = (f: Fragment, bodySize: number, numbered: boolean, whole: boolean): boolean =>
  mathy(f, bodySize) &&
  // Figures alone are a table's cells or a list of values, `(4.2)` beside them a bracketed share;
  // an equation number `(2)` beside them makes them a formula.
  (whole || /[^\d\s.,;:%()\-–−+]/.test(f.text)) &&
  Math.max(f.size, ...(f.pieces ?? []).map((p) => p.size)) >= (numbered ? 0.65 : 0.9) * bodySize &&
  (numbered ||
    RELATION.test(f.text) ||
    BIG.test(f.text) ||
    /[√]/.test(f.text) ||
    /CMEX/i.test(f.font) ||
    (MATH_FONT.test(f.font) && (f.pieces?.some((p) => Math.abs(p.y - f.y) > 0.15 * f.size) ?? false)));

interface Box {
  x0: number;
  x1: number;
  top: number;
  bottom: number;
}

const near = (b: Box, f: Fragment, bodySize: number): boolean => {
  const vertical = Math.max(f.top - b.bottom, b.top - f.bottom);
  const horizontal = Math.max(f.x0 - b.x1, b.x0 - f.x1);
  return vertical <= 0.6 * bodySize && horizontal <= 1.2 * bodySize;
};

/**
 * @param fragments The page's body fragments.
 * @param runs The page's runs (their fonts tell alphabets apart).
 * @param horizontal The page's horizontal rules (fraction bars, vincula).
 */
export function findFormulaBands(fragments: readonly Fragment[], runs: readonly Run[], horizontal: readonly Rule[], bodySize: number): FormulaBand[] {
  const taken = new Set<Fragment>();
  const bands: FormulaBand[] = [];
  const sorted = [...fragments].sort((p, q) => p.y - q.y || p.x0 - q.x0);
  const numbers = sorted.filter((f) => EQUATION_NUMBER.test(f.text.trim()));
  for (const start of sorted) {
    if (taken.has(start) || start.table !== undefined) continue;
    // The number sits on the formula's axis: a numerator or denominator reaches near it.
    const beside = numbers.filter((n) => n.x0 > start.x1 && start.top < n.y + 0.8 * bodySize && start.bottom > n.y - 1.6 * bodySize);
    const whole = beside.some((n) => /^\(\d+[a-z]?\)$/.test(n.text.trim()));
    if (!seed(start, bodySize, beside.length > 0, whole)) continue;
    const members = [start];
    const box: Box = { x0: start.x0, x1: start.x1, top: start.top, bottom: start.bottom };
    for (let grew = true; grew && members.length < 60; ) {
      grew = false;
      for (const f of sorted) {
        if (taken.has(f) || members.includes(f) || f.table !== undefined || !mathy(f, bodySize) || !near(box, f, bodySize)) continue;
        members.push(f);
        box.x0 = Math.min(box.x0, f.x0);
        box.x1 = Math.max(box.x1, f.x1);
        box.top = Math.min(box.top, f.top);
        box.bottom = Math.max(box.bottom, f.bottom);
        grew = true;
      }
    }
    const number = sorted.find(
      (f) => !taken.has(f) && EQUATION_NUMBER.test(f.text.trim()) && f.x0 > box.x1 && f.y > box.top - 0.3 * bodySize && f.y < box.bottom + 0.5 * bodySize,
    );
    // A display formula is set apart: other text on its rows close by makes it an inline formula
    // in a sentence or a cell of a table, which stay where they are.
    const crowded = sorted.some(
      (f) =>
        !members.includes(f) &&
        f !== number &&
        Math.min(f.bottom, box.bottom) - Math.max(f.top, box.top) > 0.3 * bodySize &&
        Math.max(f.x0 - box.x1, box.x0 - f.x1) < 4 * bodySize,
    );
    if (crowded) continue;
    for (const m of members) taken.add(m);
    const atoms: Atom[] = runs
      .filter(
        (r) =>
          !r.space && members.some((m) => (r.x0 + r.x1) / 2 >= m.x0 - 0.5 && (r.x0 + r.x1) / 2 <= m.x1 + 0.5 && r.y >= m.top - 0.5 && r.y <= m.bottom + 0.5),
      )
      .map((r) => ({ text: r.text, x0: r.x0, x1: r.x1, y: r.y, size: r.size, font: r.font }));
    if (atoms.map((a) => a.text.replace(/\s/g, '')).join('').length < 2) continue;
    const bars: Bar[] = horizontal
      // A bar may reach a little past the glyphs it spans.
      .filter(
        (r) =>
          r.from >= box.x0 - 0.5 * bodySize &&
          r.to <= box.x1 + 0.5 * bodySize &&
          r.at > box.top - 1 &&
          r.at < box.bottom + 1 &&
          r.to - r.from < box.x1 - box.x0 + bodySize,
      )
      .map((r) => ({ y: r.at, x0: r.from, x1: r.to }));
    const layout = layoutLatex(atoms, bars);
    const reading = toReading(layout.latex, layout.doubts);
    const all = number === undefined ? members : [...members, number];
    if (number !== undefined) taken.add(number);
    const text = members
      .slice()
      .sort((p, q) => p.y - q.y || p.x0 - q.x0)
      .map((m) => m.text)
      .join(' ');
    const right = number?.x1 ?? box.x1;
    const standIn: Fragment = {
      text,
      x0: box.x0,
      x1: right,
      y: start.y,
      top: box.top,
      bottom: box.bottom,
      size: start.size,
      font: start.font,
      formula: reading,
    };
    bands.push({ standIn, members: all, reading, ...(number === undefined ? {} : { number: number.text.trim().slice(1, -1) }) });
  }
  return bands;
}
