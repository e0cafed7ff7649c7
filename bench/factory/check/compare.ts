/**
 * How a text of the truth is compared with a text layer: every check of the factory finds texts
 * through these, so that what counts as "printed" is decided once.
 */
import { runCheck } from '../../olmocr/checks.ts';

/**
 * Text reduced to what a comparison may rely on: no whitespace, no hyphens, ligatures spelled out,
 * no Arabic vowel marks (pdftotext moves tanwin across the alef), and lam–alef in one order
 * (Chromium's text layer maps some lam–alef and lam–alef maksura ligature glyphs to their letters
 * reversed).
 *
 * @example
 * squash('Hyphen-\nation') // 'hyphenation'
 */
export const squash = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/[\u064b-\u065f\u0670]/g, '')
    .normalize('NFKC')
    // Bidi controls pdftotext writes around right-to-left runs are not text.
    .replace(/[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/g, '')
    // Within words only (before spaces go), so that a word ending in lam before one starting with
    // alef is left alone.
    .replace(/ل([اأإآى])/g, '$1ل')
    .replace(/[\s\u00ad\-‐]+/g, '')
    .toLowerCase();

/**
 * Hyphens at line ends joined (`hyphen-\nation` → `hyphenation`), as a reader should: the text
 * layer of a justified page keeps the break.
 *
 * @example
 * joinHyphens('hyphen-\nation') // 'hyphenation'
 */
export function joinHyphens(text: string): string {
  return text.replace(/(\p{L})-\n(\p{Ll})/gu, '$1$2');
}

/**
 * A page's lines that are not blank.
 *
 * @example
 * lines('Head\n\n  \nBody\n') // ['Head', 'Body']
 */
export const lines = (page: string): string[] => page.split('\n').filter((l) => l.trim() !== '');

/**
 * The differences a generated test allows in `text`: 3% of its characters.
 *
 * @example
 * maxDiffs('x'.repeat(70)) // 2
 */
export const maxDiffs = (text: string): number => Math.floor(text.length * 0.03);

/**
 * Does `text` appear in one of the text layers (as a present test would judge it), with hyphens
 * joined or kept? Several extractions are asked (content order, reading order): a text that only
 * one of them splits across columns is still printed whole.
 *
 * @example
 * inLayer('Annual Report', ['ANNUAL REPORT 2026\n…'], 0) // true (squashed)
 */
export function inLayer(text: string, layers: readonly string[], diffs = maxDiffs(text)): boolean {
  const probe = (t: string): boolean => runCheck({ pdf: 'x', page: 1, id: 'x', type: 'present', text, max_diffs: diffs }, t).passed;
  // Right-to-left text comes out of pdftotext with bidi marks and Chromium's lam-alef ligatures
  // reversed: compared with those and all spacing squashed away, it must still be there whole.
  const squashed = squash(text);
  return layers.some((layer) => probe(joinHyphens(layer)) || probe(layer) || (squashed.length >= 4 && squash(layer).includes(squashed)));
}
