/**
 * The glyph tables formula reconstruction reads beside the shared Unicode → LaTeX table
 * (`pipeline/math-symbols`): crossed relations, accents, TeX's extension font, font families.
 */

/** A crossed relation: the overlay solidus TeX sets over the next glyph. */
export const NEGATED: Readonly<Record<string, string>> = { '=': '\\neq', '\\in': '\\notin', '\\equiv': '\\not\\equiv', '\\sim': '\\nsim' };

/** Accent glyphs set before the letter they sit on. */
export const ACCENTS: Readonly<Record<string, string>> = {
  ˆ: '\\hat',
  '^': '\\hat',
  '¯': '\\bar',
  '`': '\\grave',
  '´': '\\acute',
  '˜': '\\tilde',
  '~': '\\tilde',
  '˙': '\\dot',
  '¨': '\\ddot',
  ˇ: '\\check',
  '˘': '\\breve',
  '⃗': '\\vec',
};

/**
 * TeX's extension font (cmex) has no Unicode map in most PDFs: the text layer hands out the
 * character code as ASCII. Text- and display-size big operators → LaTeX.
 */
export const CMEX_OPERATORS: Readonly<Record<string, string>> = {
  P: '\\sum',
  X: '\\sum',
  Q: '\\prod',
  Y: '\\prod',
  R: '\\int',
  Z: '\\int',
  H: '\\oint',
  I: '\\oint',
  S: '\\bigcup',
  '[': '\\bigcup',
  T: '\\bigcap',
  '\\': '\\bigcap',
  '`': '\\coprod',
  a: '\\coprod',
  L: '\\bigoplus',
  M: '\\bigoplus',
  N: '\\bigotimes',
  O: '\\bigotimes',
  V: '\\bigwedge',
  W: '\\bigvee',
  '^': '\\bigwedge',
  _: '\\bigvee',
};

/**
 * Delimiters of TeX's extension font by character code (sized ones from 0x00, the pieces of
 * extensible ones from 0x30), as the text layer hands them out: `\u0000` is a big `(`.
 */
const CMEX_DELIMITER_CODES: readonly (readonly [number, string])[] = [
  [0x00, '('],
  [0x01, ')'],
  [0x02, '['],
  [0x03, ']'],
  [0x04, '\\lfloor'],
  [0x05, '\\rfloor'],
  [0x06, '\\lceil'],
  [0x07, '\\rceil'],
  [0x08, '\\{'],
  [0x09, '\\}'],
  [0x0a, '\\langle'],
  [0x0b, '\\rangle'],
  [0x0c, '|'],
  [0x0d, '\\|'],
  [0x10, '('],
  [0x11, ')'],
  [0x12, '('],
  [0x13, ')'],
  [0x14, '['],
  [0x15, ']'],
  [0x16, '\\lfloor'],
  [0x17, '\\rfloor'],
  [0x18, '\\lceil'],
  [0x19, '\\rceil'],
  [0x1a, '\\{'],
  [0x1b, '\\}'],
  [0x1c, '\\langle'],
  [0x1d, '\\rangle'],
  [0x20, '('],
  [0x21, ')'],
  [0x22, '['],
  [0x23, ']'],
  [0x24, '\\lfloor'],
  [0x25, '\\rfloor'],
  [0x26, '\\lceil'],
  [0x27, '\\rceil'],
  [0x28, '\\{'],
  [0x29, '\\}'],
  [0x2a, '\\langle'],
  [0x2b, '\\rangle'],
  [0x30, '('],
  [0x31, ')'],
  [0x32, '['],
  [0x33, ']'],
  [0x34, '['],
  [0x35, ']'],
  [0x36, '['],
  [0x37, ']'],
  [0x38, '\\{'],
  [0x39, '\\}'],
  [0x3a, '\\{'],
  [0x3b, '\\}'],
  [0x3c, '\\{'],
  [0x3d, '\\}'],
  [0x3e, '\\{'],
  [0x40, '('],
  [0x41, ')'],
  [0x42, '('],
  [0x43, ')'],
  [0x44, '\\langle'],
  [0x45, '\\rangle'],
];
export const CMEX_DELIMITERS: ReadonlyMap<string, string> = new Map(CMEX_DELIMITER_CODES.map(([code, latex]) => [String.fromCharCode(code), latex]));

/** Radical signs of the extension font (sizes and pieces). */
export const CMEX_RADICAL = /^[p-tuvw]$/;

/** LaTeX big operators (limits over and under, or as scripts for integrals). */
export const BIG_OPERATORS = new Set([
  '\\sum',
  '\\prod',
  '\\coprod',
  '\\int',
  '\\iint',
  '\\oint',
  '\\bigcup',
  '\\bigcap',
  '\\bigoplus',
  '\\bigotimes',
  '\\bigwedge',
  '\\bigvee',
]);

/** Fonts that set mathematics (Computer Modern and AMS math fonts, common math fonts of other families). */
export const MATH_FONT = /CMMI|CMSY|CMEX|CMBSY|MSAM|MSBM|EUFM|EUSM|RSFS|Math|Symbol|StandardSym|STIX|Cambria.?Math|TeXGyre.*Math|rtxmi|txsy|txex|pxsy|pxex/i;

/** The font a letter is set in → the LaTeX alphabet command, undefined for italic math (the default). */
export function alphabetOf(font: string, char: string): string | undefined {
  const name = font.replace(/^[A-Z]{6}\+/, '');
  if (/MSBM|BlackboardBold|-BB/i.test(name) && /[A-Z]/.test(char)) return '\\mathbb';
  if (/EUFM|Fraktur/i.test(name)) return '\\mathfrak';
  if (/CMSY|CMBSY|Calligraph|Script/i.test(name) && /[A-Z]/.test(char)) return '\\mathcal';
  if (/CMBX|CMMIB|Bold|-Bd|\bBX/i.test(name)) return '\\mathbf';
  if (/CMSS|Sans/i.test(name)) return '\\mathsf';
  if (/CMTT|Mono|Courier/i.test(name)) return '\\mathtt';
  // An upright text font (`CMR10`, `…-Roman`, `…-Roma`, `…-Regular`, `…-Regu`) sets operator names and upright letters.
  if (/CMR\d|CMU.*Roman|-Regu(?:lar)?$|-Roma(?:n)?$|-Book$|Roman$/i.test(name) && !/Ital|Oblique|CMMI/i.test(name)) return '\\mathrm';
  return undefined;
}
