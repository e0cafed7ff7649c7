/** Kept for importers of `text-layer/formula.ts`: the code lives in `formula/`. */
export type { FormulaBand, FormulaReading, LineFormula } from './formula/index.ts';
export { findFormulaBands, formulaLatex, formulaLike, layoutLatex } from './formula/index.ts';
