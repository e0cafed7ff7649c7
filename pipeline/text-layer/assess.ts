/**
 * Is a page's text layer good enough to stand in for OCR? Empty or near-empty layers, glyph
 * garbage (unmapped fonts give private-use code points, U+FFFD or symbol soup) and invisible
 * text (an OCR layer under a scan) are not.
 */
import type { TextLayerAssessment } from './types.ts';

export interface AssessOptions {
  /**
   * Fewest non-space characters for a usable page.
   * @default 20
   */
  readonly minChars?: number;
  /**
   * Highest share of garbage characters (replacement, private-use, control) for a usable page.
   * @default 0.1
   */
  readonly maxGarbageRatio?: number;
  /**
   * Lowest share of letters and digits among non-space characters (below: symbol soup).
   * @default 0.45
   */
  readonly minAlnumRatio?: number;
  /**
   * Highest share of invisibly drawn glyphs (render mode 3) for a usable page.
   * @default 0.3
   */
  readonly maxInvisibleRatio?: number;
}

export interface TextFigures {
  readonly text: string;
  readonly items: number;
  /** Invisible and total glyphs, when the operator list was read. */
  readonly invisibleGlyphs?: number;
  readonly glyphs?: number;
  readonly imageCoverage?: number;
}

// Replacement char, C0/C1 controls, private use areas (BMP and planes 15–16), unmapped `(cid:N)`.
const GARBAGE = /[\uFFFD\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uE000-\uF8FF]|[\u{F0000}-\u{10FFFF}]|\(cid:\d+\)/gu;
const NOT_ALNUM = /[^\p{L}\p{N}]+/gu;
const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

export function assessText(figures: TextFigures, options: Readonly<AssessOptions> = {}): TextLayerAssessment {
  const { minChars = 20, maxGarbageRatio = 0.1, minAlnumRatio = 0.45, maxInvisibleRatio = 0.3 } = options;
  const compact = figures.text.replace(/\s+/g, '');
  const chars = codePoints(compact);
  const garbageChars = (compact.match(GARBAGE) ?? []).reduce((sum, m) => sum + m.length, 0);
  // Counted by what is left after deleting the rest: no array of thousands of one-letter matches.
  const alnum = codePoints(compact.replace(NOT_ALNUM, ''));
  const garbageRatio = chars === 0 ? 0 : garbageChars / chars;
  const alnumRatio = chars === 0 ? 0 : alnum / chars;
  const details: Record<string, number | string | boolean> = {
    chars,
    items: figures.items,
    garbageRatio: round(garbageRatio),
    alnumRatio: round(alnumRatio),
  };
  if (figures.glyphs !== undefined) {
    details.glyphs = figures.glyphs;
    details.invisibleGlyphs = figures.invisibleGlyphs ?? 0;
  }
  if (figures.imageCoverage !== undefined) details.imageCoverage = round(figures.imageCoverage);
  const verdict = (usable: boolean, reason: string): TextLayerAssessment => ({ usable, reason, details });
  if (chars === 0) return verdict(false, 'no-text-layer');
  if (figures.glyphs !== undefined && figures.glyphs > 0) {
    const invisibleRatio = (figures.invisibleGlyphs ?? 0) / figures.glyphs;
    details.invisibleRatio = round(invisibleRatio);
    if (invisibleRatio > maxInvisibleRatio) return verdict(false, 'invisible-text');
  }
  if (chars < minChars) return verdict(false, 'too-little-text');
  if (garbageRatio > maxGarbageRatio) return verdict(false, 'garbage-text');
  if (alnumRatio < minAlnumRatio) return verdict(false, 'garbage-text');
  return verdict(true, 'text-layer-good');
}

/** Code points in a string: UTF-16 units less one per surrogate pair. */
function codePoints(text: string): number {
  return text.length - (text.match(SURROGATE_PAIR)?.length ?? 0);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
