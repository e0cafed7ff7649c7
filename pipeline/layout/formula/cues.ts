/**
 * What marks a run of a sentence as mathematics whatever the font family. Computer Modern sets
 * math letters in its own math italic (CMMI), but Palatino (mathpazo), Times (mathptmx, newtx),
 * Libertine and most journal fonts set them in the text italic, so the font name alone misses
 * them: a run is also math when it holds a glyph only mathematics uses (Greek, relations,
 * operators), or is a single italic letter — prose puts whole words in italics, mathematics one
 * letter at a time.
 */
import { MATH_FONT } from './symbols.ts';

/** Italic and slanted text faces: `…-Ital`, `…-Italic`, `…-ReguItal`, `…-Oblique`, `…-Slant_167`, `…-It`. */
const ITALIC_FONT = /Ital|Oblique|Slant|-It(?:$|[A-Z])/;

/**
 * Glyphs only mathematics sets: set relations, quantifiers, big operators. Not `≤ ≠ × ± →`,
 * which prose in a text font has too (`p ≤ 0.05`, `3 × 3 grid`, `A → B`).
 */
const MATH_GLYPH = /[∈∉∋⊂⊃⊆⊇⊊∪∩∀∃∄∂∇∑∏∫∮√≡⟨⟩]/u;

/** One or two Greek letters (`λ`, `αβ`); a longer Greek run is a word of Greek prose. */
const GREEK_SYMBOL = /^[\u0391-\u03a9\u03b1-\u03c9\u03d1\u03d5\u03f0\u03f1\u03f5]{1,2}[′']?$/u;
/** A Greek word: the sentence is Greek prose, its Greek letters are no cue. */
export const GREEK_WORD = /\p{Script=Greek}{3,}/u;

/** A single italic letter, maybe primed: `x`, `R`, `g′`. */
const LETTER = /^\p{L}[′']?$/u;

/**
 * A run set in a math font, or one holding a math-only glyph: on its own it shows that the
 * sentence around it holds a formula.
 */
export function strongMathCue(text: string, font: string, greekProse = false): boolean {
  return MATH_FONT.test(font) || MATH_GLYPH.test(text) || (!greekProse && GREEK_SYMBOL.test(text.trim()));
}

/** A single letter in an italic text face: math inside a sentence that has another cue. */
export function italicLetter(text: string, font: string): boolean {
  return ITALIC_FONT.test(font) && !MATH_FONT.test(font) && LETTER.test(text.trim());
}
