/** The tiny random folio-ocr model and its PyTorch reference (test/fixtures/models). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const MODEL_DIR = fileURLToPath(new URL('../../fixtures/models/folio-ocr-tiny-random/', import.meta.url));

export interface ReferenceCase {
  readonly image: string;
  readonly greedy_ids: readonly number[];
  readonly pixel_values_sum: number;
  readonly min_top1_top2_logit_margin: number;
}

export const reference = JSON.parse(readFileSync(`${MODEL_DIR}reference.json`, 'utf8')) as {
  readonly steps: number;
  readonly prompt_ids: readonly number[];
  readonly cases: readonly ReferenceCase[];
};
