/**
 * LaTeX for the factory's papers: text escaped so that what prints is the text itself (no
 * ligature turns `--` into a dash or `''` into a curly quote), and the font setups they vary over.
 */

const SPECIAL: Readonly<Record<string, string>> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  $: '\\$',
  '&': '\\&',
  '%': '\\%',
  '#': '\\#',
  _: '\\_',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
  // T1 would print these as curly quotes, guillemets or a bar from another slot.
  "'": '\\textquotesingle{}',
  '`': '\\textasciigrave{}',
  '"': '\\textquotedbl{}',
  '<': '\\textless{}',
  '>': '\\textgreater{}',
  '|': '\\textbar{}',
};

/**
 * `text` as LaTeX that prints exactly `text`: specials escaped, and the ligatures T1 fonts make of
 * `--`, `,,` and `''` broken with an empty group.
 *
 * @example
 * escapeLatex('a--b & 50%') // 'a-{}-b \\& 50\\%'
 */
export function escapeLatex(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    out += SPECIAL[c] ?? c;
    if ((c === '-' || c === ',') && text[i + 1] === c) out += '{}';
  }
  return out;
}

export interface PaperFont {
  /** Name in the report and in `drawFormula` (`times` sets math with mathptmx). */
  readonly name: string;
  /** Preamble lines after `\usepackage[T1]{fontenc}`. */
  readonly preamble: readonly string[];
}

/**
 * Text fonts of real papers. Latin Modern always comes first: it gives every family a T1
 * typewriter and sans face as Type 1 fonts (without it T1 falls back to bitmap EC fonts).
 */
export const PAPER_FONTS: readonly PaperFont[] = [
  { name: 'cm', preamble: ['\\usepackage{lmodern}'] },
  { name: 'times', preamble: ['\\usepackage{lmodern}', '\\usepackage{mathptmx}'] },
  { name: 'palatino', preamble: ['\\usepackage{lmodern}', '\\usepackage{mathpazo}'] },
  { name: 'helvetica', preamble: ['\\usepackage{lmodern}', '\\usepackage[scaled=0.92]{helvet}', '\\renewcommand{\\familydefault}{\\sfdefault}'] },
  { name: 'charter', preamble: ['\\usepackage{lmodern}', '\\usepackage{charter}'] },
  { name: 'bookman', preamble: ['\\usepackage{lmodern}', '\\usepackage{bookman}'] },
];
