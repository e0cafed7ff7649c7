/**
 * Inline formulas inside a sentence: the runs of a fragment set in a math font (TeX's math
 * italic and symbol fonts, or raised and lowered scripts), with the upright operators, digits and
 * brackets between them, are one formula; read without doubt it is written `$…$`, otherwise its
 * text stays. Only fragments that kept their runs (a math font among others) are looked at.
 */
import type { Fragment, Piece } from '../types.ts';
import type { Atom } from './atoms.ts';
import { layoutLatex } from './layout.ts';
import { toReading } from './reading.ts';
import { MATH_FONT } from './symbols.ts';

/** Upright text that belongs to a formula around it: operators, digits, brackets, function names. */
const JOINER = /^[=+\-−<>()[\]|/0-9.,′'!:;]+$|^(?:sin|cos|tan|log|ln|exp|max|min|sup|inf|lim|det)$/;

export interface InlineText {
  /** The fragment's text with each formula replaced by `\uE000<k>\uE001`. */
  readonly text: string;
  /** LaTeX of the formulas, by k. */
  readonly latex: readonly string[];
}

function mathPiece(p: Piece, f: Fragment): boolean {
  const font = p.font ?? '';
  if (MATH_FONT.test(font)) return true;
  // A script: smaller and off the baseline.
  return p.size < 0.85 * f.size && Math.abs(p.y - f.y) > 0.1 * f.size;
}

/** Join pieces as the text layer spaced them. */
function joinPieces(pieces: readonly Piece[]): string {
  let out = '';
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!;
    const gap = i === 0 ? 0 : p.x0 - pieces[i - 1]!.x1;
    if (i > 0 && gap > 0.15 * p.size && !out.endsWith(' ')) out += ' ';
    out += p.text;
  }
  return out;
}

/**
 * A fragment's inline formulas, or undefined when it has none read without doubt.
 *
 * @example
 * inlineFormulas(fragment) // { text: 'where \uE0000\uE001 is given.', latex: ['x^{2}'] }
 */
export function inlineFormulas(f: Fragment): InlineText | undefined {
  const pieces = f.pieces;
  if (pieces === undefined || pieces.length < 2 || !pieces.some((p) => MATH_FONT.test(p.font ?? ''))) return undefined;
  const sorted = [...pieces].sort((p, q) => p.x0 - q.x0);
  const math = sorted.map((p) => mathPiece(p, f));
  // Upright joiners between two math pieces belong to the formula (`x = 2y`), and so do the ones
  // right before or after it that carry an operator or a function name (`lim x`, `x + 1`).
  for (let i = 1; i < sorted.length - 1; i++) {
    if (math[i]) continue;
    const next = math.indexOf(true, i + 1);
    if (math[i - 1] && next > i && sorted.slice(i, next).every((p) => JOINER.test(p.text.trim()))) for (let k = i; k < next; k++) math[k] = true;
  }
  const attached = (p: Piece): boolean => JOINER.test(p.text.trim()) && !/^[.,;:]+$/.test(p.text.trim()) && /[=+\-−<>0-9a-z]/.test(p.text);
  for (let i = 1; i < sorted.length; i++)
    if (!math[i] && math[i - 1] && attached(sorted[i]!) && sorted[i]!.x0 - sorted[i - 1]!.x1 < 0.5 * f.size) math[i] = true;
  for (let i = sorted.length - 2; i >= 0; i--)
    if (!math[i] && math[i + 1] && attached(sorted[i]!) && sorted[i + 1]!.x0 - sorted[i]!.x1 < 0.5 * f.size) math[i] = true;
  const latex: string[] = [];
  const parts: string[] = [];
  let i = 0;
  while (i < sorted.length) {
    let j = i;
    while (j < sorted.length && math[j] === math[i]) j++;
    const span = sorted.slice(i, j);
    const text = joinPieces(span);
    const gap = i === 0 ? '' : sorted[i]!.x0 - sorted[i - 1]!.x1 > 0.15 * f.size ? ' ' : '';
    // A formula has letters or figures: a bullet or a dash in a symbol font is text.
    if (math[i] && /[\p{L}\p{N}]/u.test(text)) {
      // Sentence punctuation after a formula is set in the math font too: it stays text.
      const trail = /[.,;:]$/.test(span.at(-1)!.text.trim()) ? span.at(-1)!.text.trim().slice(-1) : '';
      const atoms: Atom[] = span.map((p) => ({ text: p.text, x0: p.x0, x1: p.x1, y: p.y, size: p.size, font: p.font ?? '' }));
      if (trail !== '') {
        const last = atoms.at(-1)!;
        atoms[atoms.length - 1] = { ...last, text: last.text.trim().slice(0, -1) };
      }
      const layout = layoutLatex(atoms, []);
      const reading = toReading(layout.latex, layout.doubts);
      if (!reading.unsure && reading.latex !== '') {
        parts.push(`${gap}\uE000${latex.length}\uE001${trail}`);
        latex.push(reading.latex);
      } else parts.push(gap + text);
    } else parts.push(gap + text);
    i = j;
  }
  return latex.length === 0 ? undefined : { text: parts.join('').replace(/\s+/g, ' ').trim(), latex };
}
