/** A formula's reading: LaTeX checked by KaTeX, and how sure of it the geometry leaves us. */
import { makeFormula } from '../../markdown/latex.ts';

export interface FormulaReading {
  /** LaTeX rebuilt from the glyphs (display style); set even when unsure, as a best guess. */
  readonly latex: string;
  /** KaTeX parsed it. */
  readonly valid: boolean;
  /**
   * The geometry left doubts (glyphs without a reading, rows nothing explains, KaTeX refused it):
   * keep the text, or send the region to the formula model.
   */
  readonly unsure: boolean;
  /** 1 with no doubt, a quarter less per doubt, 0 when KaTeX refuses it. */
  readonly confidence: number;
  /** Why it is unsure, for logs and the formula-model hand-off. */
  readonly doubts: readonly string[];
}

export function toReading(latex: string, doubts: readonly string[]): FormulaReading {
  // The sentence's full stop or comma after a display belongs to the prose, not the formula.
  const bare = latex
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/(?<![\\\d])[.,;]$/, '');
  const formula = makeFormula({ latex: bare, display: true });
  const all = formula.valid ? [...doubts] : [...doubts, 'KaTeX rejects it'];
  const confidence = formula.valid ? Math.max(0, 1 - 0.25 * doubts.length) : 0;
  return { latex: formula.latex, valid: formula.valid, unsure: all.length > 0 || formula.latex === '', confidence, doubts: all };
}
