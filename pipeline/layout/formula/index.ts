/**
 * Formulas from the text layer: LaTeX rebuilt from glyph geometry, fonts and drawn rules, checked
 * by KaTeX, with a verdict (`unsure`, `confidence`) so that doubtful ones keep their text or go to
 * the formula model.
 */
export type { Atom, Bar } from './atoms.ts';
export type { FormulaBand } from './bands.ts';
export { findFormulaBands } from './bands.ts';
export { italicLetter, strongMathCue } from './cues.ts';
export { inlineFormulas } from './inline.ts';
export { layoutLatex } from './layout.ts';
export type { LineFormula } from './line.ts';
export { formulaLatex, formulaLike } from './line.ts';
export type { FormulaReading } from './reading.ts';
export { MATH_FONT } from './symbols.ts';
