/**
 * Tall delimiters. KaTeX draws a delimiter taller than its biggest font glyph as a stack
 * (`.delimsizing.mult`): one SVG for parentheses, brackets, floors, ceilings and bars, glyph
 * pieces (`⎧ ⎨ ⎩` and a drawn middle) for braces and groups. To compare `\left(` around a tall
 * formula with a plain `(`, each stack counts as one glyph: the delimiter's normal character, with
 * the stack's box. Which stack is which is learnt on the page itself, from calibration formulas
 * drawn by the same KaTeX: a stack is recognised by its pieces (glyph characters, SVG view-box
 * width and path commands without their numbers).
 */

/** `[LaTeX delimiter, the character KaTeX draws for it at normal size]`. */
const DELIMITERS: readonly (readonly [string, string])[] = [
  ['(', '('],
  [')', ')'],
  ['[', '['],
  [']', ']'],
  ['\\{', '{'],
  ['\\}', '}'],
  ['|', '\u2223'],
  ['\\|', '\u2225'],
  ['\\lfloor', '\u230a'],
  ['\\rfloor', '\u230b'],
  ['\\lceil', '\u2308'],
  ['\\rceil', '\u2309'],
  ['\\lgroup', '\u27ee'],
  ['\\rgroup', '\u27ef'],
  ['\\uparrow', '\u2191'],
  ['\\downarrow', '\u2193'],
  ['\\updownarrow', '\u2195'],
  ['\\Uparrow', '\u21d1'],
  ['\\Downarrow', '\u21d3'],
  ['\\Updownarrow', '\u21d5'],
];

/** Calibration formulas: each delimiter stretched far beyond its biggest glyph, and its character. */
export const CALIBRATION: readonly { readonly latex: string; readonly char: string }[] = DELIMITERS.map(([delim, char]) => ({
  latex: `\\left${delim}\\rule{0pt}{6em}\\right.`,
  char,
}));
