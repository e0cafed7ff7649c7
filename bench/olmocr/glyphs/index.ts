/** The olmOCR-Bench math test's glyph comparison: formulas rendered by KaTeX in Chromium, compared by glyph arrangement. */
export { sameArrangement } from './arrangement.ts';
export type { GlyphBookResult } from './book.ts';
export { glyphBook } from './book.ts';
export type { Glyph, GlyphBook } from './glyph.ts';
export type { RenderedGlyphs } from './render.ts';
export { CHROMIUM, renderGlyphs } from './render.ts';
