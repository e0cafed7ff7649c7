export type { FormulaGuardOptions, GuardVerdict } from './guard.ts';
export { checkReading } from './guard.ts';
export type { FormulaCrop, FormulaReader, FormulaReaderOptions, FormulaReading } from './read.ts';
export { createFormulaReader, FORMULA_MODEL } from './read.ts';
export type { FormulaViewOptions } from './view.ts';
export { formulaView, inkContrast } from './view.ts';
