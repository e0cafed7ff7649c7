export { characterErrorRate, editDistance, plainText } from './cer.ts';
export type { CerRow, GnarlyRow, OcrBenchResult, OlmocrRow } from './report.ts';
export type { OcrBenchOptions } from './run.ts';
export { runOcrBench } from './run.ts';
export type { TesseractOptions, TesseractRun } from './tesseract.ts';
export { tesseractAvailable, tesseractPage } from './tesseract.ts';
