/**
 * A glyph book for a run: every formula the glyph test may need, rendered in one browser page.
 * When Chromium cannot start, there is no book and the math tests fall back to MathML alone; the
 * note says which test decided, for the bench report.
 */
import type { GlyphBook } from './glyph.ts';
import { renderGlyphs } from './render.ts';

export interface GlyphBookResult {
  /** Undefined when the browser could not start. */
  readonly book: GlyphBook | undefined;
  /** `glyphs (Chromium, N formulas)` or `MathML only: <why>`. */
  readonly note: string;
}

/**
 * Render a run's formulas (duplicates rendered once) in the Chromium at `executablePath`
 * (`/usr/bin/chromium` by default).
 *
 * @example
 * const { book, note } = await glyphBook(['x^2', '\\left(a\\right)'])
 */
export async function glyphBook(formulas: Iterable<string>, executablePath?: string): Promise<GlyphBookResult> {
  const unique = [...new Set(formulas)];
  try {
    const { glyphs } = await renderGlyphs(unique, executablePath);
    return { book: new Map(unique.map((f, i) => [f, glyphs[i] ?? null])), note: `glyphs (KaTeX in Chromium, ${unique.length} formulas)` };
  } catch (error) {
    return {
      book: undefined,
      note: `MathML only: the browser for the glyph test did not start (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    };
  }
}
