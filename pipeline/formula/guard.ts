/**
 * Whether a model reading of a formula crop is kept: KaTeX must accept it (the pipeline's own
 * check), decoding must have ended on the end token (not on the budget or the repetition guard), it
 * must not be longer than the crop can hold, and the model must not have been close to another
 * choice at any token (`minMargin`, the smallest gap between the two best logits). A reading that
 * fails keeps the text route's result, with the reason recorded.
 */
import type { DecodeStats } from '../../inference/onnx/generate.ts';
import { makeFormula } from '../markdown/latex.ts';

export interface FormulaGuardOptions {
  /**
   * Smallest accepted logit gap over the tokens. Calibrated through this reader on the held-out
   * views cut to their ink (`node bench/math/calibrate.ts`, `bench/results/math-guard.md`,
   * 2026-12-01): at 1 it keeps 33 of 200 synthetic formulas, 30 of them render-equal (coverage
   * 16.5%, precision 90.9%), 5 of 21 real ones (4 right), 1 of 7 olmOCR dev crops (right); at 0.5
   * precision falls to 72% (46 of 64), at 1.5 coverage to 11.5% (23 of 23 right). Crops of noise
   * end on the token budget with gaps near 0. @default 1
   */
  readonly minMargin?: number;
  /** LaTeX characters per crop pixel of width, at most: a 40 px crop cannot hold a 300-character formula. @default 1 */
  readonly maxCharsPerPixel?: number;
  /**
   * Least ink contrast (paper grey − darkest grey) of a crop worth reading. The training views had ink
   * at least ~100 grey levels below the paper after degradation; a blank crop reads as `\ldots` with
   * high confidence, so it is refused before the model runs. @default 64
   */
  readonly minInkContrast?: number;
}

export type GuardVerdict = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/**
 * @example
 * checkReading('\\frac{a}{b}', stats, 120) // { ok: true }
 */
export function checkReading(
  latex: string,
  stats: Pick<DecodeStats, 'stop' | 'minMargin'>,
  cropWidth: number,
  options: Readonly<FormulaGuardOptions> = {},
): GuardVerdict {
  const { minMargin = 1, maxCharsPerPixel = 1 } = options;
  if (latex.trim() === '') return { ok: false, reason: 'empty reading' };
  if (stats.stop !== 'eos') return { ok: false, reason: `decoding stopped on ${stats.stop}` };
  if (latex.length > cropWidth * maxCharsPerPixel) return { ok: false, reason: `${latex.length} characters for a crop ${cropWidth} px wide` };
  const formula = makeFormula({ latex, display: true });
  if (!formula.valid) return { ok: false, reason: `KaTeX: ${formula.error ?? 'invalid'}` };
  if (stats.minMargin < minMargin) return { ok: false, reason: `low confidence (smallest logit gap ${stats.minMargin.toFixed(2)} < ${minMargin})` };
  return { ok: true };
}
