/**
 * One folio-ocr-math reader per thread and device, created on the first formula region and kept
 * for the rest of the run: loading the model costs more than reading a page's formulas, and a
 * worker thread reads many documents.
 */
import type { Device } from '../../inference/runtime/ort.ts';
import type { FormulaReader } from '../formula/index.ts';

const readers = new Map<Device, Promise<FormulaReader>>();

/**
 * @example
 * const reader = await sharedFormulaReader('cpu');
 */
export function sharedFormulaReader(device: Device = 'cpu'): Promise<FormulaReader> {
  let reader = readers.get(device);
  if (reader === undefined) {
    // Imported on first use: a run that meets no formula never loads onnxruntime for it.
    reader = import('../formula/index.ts').then(({ createFormulaReader }) => createFormulaReader({ device }));
    // A failed load is not kept: the next page tries again.
    reader.catch(() => readers.delete(device));
    readers.set(device, reader);
  }
  return reader;
}
