/**
 * One text line that reads as mathematics (`formulaLike`) → LaTeX from its pieces' baselines and
 * sizes, with the one-token lines just over and under a big operator as its limits. The page's
 * display bands (`bands.ts`) read stacked formulas with their rules and fonts; this reads the lines
 * left over, from the line alone.
 */

import { OPERATOR_NAMES } from '../../math-symbols/index.ts';
import type { Line, Piece } from '../types.ts';
import type { Atom } from './atoms.ts';
import { layoutLatex } from './layout.ts';
import { type FormulaReading, toReading } from './reading.ts';

const MATH_SIGNAL = /[∫∑∏√∇∂∞×⋅÷±∓≤≥≠≈≡∝∈⊂∪∩∀∃→⇒α-ωΓ-Ω]/u;
const RELATION = /[=≈≠≤≥∝≡<>]/u;
const BIG_OPERATOR = /[∫∑∏]/u;

function piecesOf(line: Line): Piece[] {
  return line.fragments.flatMap((f) => f.pieces ?? [{ text: f.text, x0: f.x0, x1: f.x1, y: f.y, size: f.size }]);
}

/** A line is mathematics: a relation or big operator, a math signal, and hardly any prose. */
export function formulaLike(line: Line, bodySize = line.size): boolean {
  // Most lines have no relation or big operator: they leave here without an allocation.
  if (!(RELATION.test(line.text) || BIG_OPERATOR.test(line.text))) return false;
  const text = line.text.replace(/\u200b/g, '');
  // A row of small type is the limits or scripts of a formula next to it, not one of its own.
  if (line.size < 0.9 * bodySize) return false;
  if (text.length > 160 || !(RELATION.test(text) || BIG_OPERATOR.test(text))) return false;
  const scripted = piecesOf(line).some((p) => Math.abs(p.y - line.y) > 0.2 * line.size);
  if (!MATH_SIGNAL.test(text) && !scripted) return false;
  const words = (text.match(/\p{L}{3,}/gu) ?? []).filter((w) => !OPERATOR_NAMES.has(w.toLowerCase()));
  return words.length <= 1;
}

/** A formula line's reading, with whether the lines over and under it went in as limits. */
export interface LineFormula extends FormulaReading {
  readonly above: boolean;
  readonly below: boolean;
}

const atomsOf = (line: Line, font: string): Atom[] => piecesOf(line).map((p) => ({ text: p.text, x0: p.x0, x1: p.x1, y: p.y, size: p.size, font }));

/**
 * A formula line (with the one-token lines just above and below it, for limits) → LaTeX, or
 * undefined when KaTeX rejects what came out. Check `unsure` before trusting it.
 *
 * @example
 * formulaLatex(line)?.latex // 'e^{i \\pi} + 1 = 0'
 */
export function formulaLatex(line: Line, above?: Line, below?: Line): LineFormula | undefined {
  const atoms = atomsOf(line, '');
  if (atoms.length === 0) return undefined;
  const size = Math.max(...atoms.map((a) => a.size));
  const sign = atoms.find((a) => BIG_OPERATOR.test(a.text));
  // Limits set on lines of their own, right over and under the sign.
  const limit = (l: Line | undefined): boolean =>
    sign !== undefined &&
    l !== undefined &&
    l.text.trim().length <= 8 &&
    l.size < 1.1 * size &&
    Math.abs(l.y - line.y) < 2.5 * size &&
    l.x0 < sign.x1 + size &&
    l.x1 > sign.x0 - size;
  const useAbove = limit(above);
  const useBelow = limit(below);
  // Limit lines shrink to script size for the layout: that is what they are.
  const asLimits = (l: Line): Atom[] => atomsOf(l, '').map((a) => ({ ...a, size: Math.min(a.size, 0.8 * size) }));
  const all = [...atoms, ...(useAbove ? asLimits(above!) : []), ...(useBelow ? asLimits(below!) : [])];
  const layout = layoutLatex(all, []);
  const reading = toReading(layout.latex, layout.doubts);
  return reading.valid ? { ...reading, above: useAbove, below: useBelow } : undefined;
}
