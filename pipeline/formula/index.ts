export { createFormulaReader, FORMULA_MODEL } from './read.ts';
export type { FormulaCrop, FormulaReading, FormulaReader, FormulaReaderOptions } from './read.ts';
export { checkReading } from './guard.ts';
export type { FormulaGuardOptions, GuardVerdict } from './guard.ts';
export { formulaView, inkContrast } from './view.ts';
export type { FormulaViewOptions } from './view.ts';
