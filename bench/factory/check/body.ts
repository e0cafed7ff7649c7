/** Which texts of the body a text layer must hold, and which of them it does. */
import type { TruthBlock } from '../types.ts';
import { squash } from './compare.ts';

/**
 * The texts of a block a text layer must contain (formulas left out: they print as glyphs).
 *
 * @example
 * blockTexts({ kind: 'paragraph', text: 'Let $x>0$ be given.' }) // ['Let ', ' be given.']
 */
export function blockTexts(block: TruthBlock): string[] {
  const plain = (text: string): string[] => text.split(/\$[^$]*\$/).filter((s) => squash(s).length > 0);
  switch (block.kind) {
    case 'heading':
    case 'paragraph':
    case 'caption':
      return plain(block.text);
    case 'list':
      return block.items.flatMap((i) => plain(i.text));
    case 'table':
      return [...block.table.cells.map((c) => c.text), ...(block.caption ? plain(block.caption) : [])];
    case 'code':
      return block.text.split('\n');
    case 'field':
      return [block.label, block.value];
    case 'formula':
      return [];
  }
}

export interface BodyCheck {
  /** Body texts checked. */
  readonly checked: number;
  /** Body texts not found in the document's text layer. */
  readonly missing: string[];
  /**
   * Body texts of right-to-left or CJK documents found only word by word: pdftotext put a number
   * or a neutral run of a right-to-left line in another order (`%12` for `12%`).
   */
  readonly reordered: string[];
}

/**
 * Find every body text of `blocks` in `pages` (each page's body, furniture taken off). Comparison
 * ignores whitespace and hyphens (LaTeX hyphenates at line ends; pdftotext keeps them).
 *
 * @param latin whether the body is in Latin script: only other scripts may be found word by word
 * @example
 * checkBody(doc.blocks, ['Introduction This paper …'], true).missing // []
 */
export function checkBody(blocks: readonly TruthBlock[], pages: readonly string[], latin: boolean): BodyCheck {
  const layer = squash(pages.join(''));
  const all = blocks.flatMap(blockTexts);
  const missing = all.filter((t) => !layer.includes(squash(t)));
  // Word by word, each word's letters in any order: Chromium's text layer maps some Arabic
  // ligature glyphs (lam–alef, lam–yeh) to their letters reversed.
  const bare = (w: string): string => squash(w).replace(/[.,:;،؛!?%()/]/g, '');
  const letters = (w: string): string => [...bare(w)].sort().join('');
  const words = new Set(
    pages
      .join(' ')
      .split(/[\s\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]+/)
      .map(letters),
  );
  const loose = bare(layer);
  const wordByWord = (t: string): boolean => !latin && t.split(/\s+/).every((w) => letters(w) === '' || words.has(letters(w)) || loose.includes(bare(w)));
  return { checked: all.length, missing: missing.filter((t) => !wordByWord(t)), reordered: missing.filter(wordByWord) };
}
