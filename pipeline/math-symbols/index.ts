/** Unicode → LaTeX for formulas, shared by the layout stage and the format converters. */
export { KATEX_SYMBOLS } from './katex-symbols.ts';
export { COMBINING_ACCENTS, MATH_SYMBOLS, OPERATOR_NAMES, symbolLatex, symbolsLatex } from './symbols.ts';
