/** One visible mark of a rendered formula: a character (or a rule or drawing) and its ink box. */
export interface Glyph {
  /** The character, with its typeface (`x|KaTeX_Main|italic|400`); `rule` for bars, `svg:…` for drawings. */
  readonly key: string;
  /** Ink box in ems of the formula's base size, y growing downwards, from the formula's top left. */
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

/** Rendered formulas by LaTeX source; `null` where KaTeX rejects the source. */
export type GlyphBook = ReadonlyMap<string, readonly Glyph[] | null>;
