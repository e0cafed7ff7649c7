/**
 * The canonical spelling of a LaTeX formula, as folio-ocr-math was trained on it
 * (`training/formula/latex.py`, `canonical`): whitespace dropped outside text groups
 * (collapsed to one space inside `\text{…}`, `\mathrm{…}`, `\operatorname{…}`), one space kept after
 * a control word that a letter follows. Two spellings of one source compare equal after it.
 */
const TOKEN = /\\[A-Za-z]+|\\.|\s+|./gsu;
const TEXT_GROUPS = new Set(['\\text', '\\mathrm', '\\operatorname', '\\textrm', '\\textbf', '\\textit', '\\mbox']);
const CONTROL_WORD = /^\\[A-Za-z]+$/u;

/**
 * @example
 * canonicalLatex('\\frac {a} { b }') // '\\frac{a}{b}'
 * canonicalLatex('\\alpha x') // '\\alpha x'
 */
export function canonicalLatex(latex: string): string {
  const out: string[] = [];
  const textDepths: number[] = [];
  let depth = 0;
  let pendingText = false;
  for (const token of latex.trim().match(TOKEN) ?? []) {
    const inText = textDepths.length > 0;
    if (/^\s+$/u.test(token)) {
      if (inText && out.length > 0 && out.at(-1) !== ' ') out.push(' ');
      continue;
    }
    if (token === '{') {
      depth += 1;
      if (pendingText) textDepths.push(depth);
      pendingText = false;
    } else if (token === '}') {
      if (textDepths.at(-1) === depth) {
        textDepths.pop();
        if (out.at(-1) === ' ') out.pop();
      }
      depth -= 1;
    } else {
      pendingText = TEXT_GROUPS.has(token);
    }
    const last = out.at(-1);
    if (last !== undefined && CONTROL_WORD.test(last) && /^[A-Za-z]/u.test(token)) out.push(' ');
    out.push(token);
  }
  return out.join('').trim();
}
