/**
 * Office Math (OMML, `m:oMath`) to LaTeX: fractions, scripts, radicals, n-ary operators,
 * delimiters, functions, accents, limits, matrices and equation arrays. Characters outside ASCII
 * map to LaTeX commands where KaTeX has one (the shared table of `pipeline/math-symbols`), so the
 * formula survives the KaTeX check downstream.
 */
import { COMBINING_ACCENTS, OPERATOR_NAMES, symbolLatex, symbolsLatex } from '../math-symbols/index.ts';
import { attr, kid, kids, type XmlElement } from './xml.ts';

const DELIMITERS: Readonly<Record<string, string>> = {
  '(': '(',
  ')': ')',
  '[': '[',
  ']': ']',
  '{': '\\{',
  '}': '\\}',
  '|': '|',
  '‖': '\\|',
  '⟨': '\\langle',
  '⟩': '\\rangle',
  '⌈': '\\lceil',
  '⌉': '\\rceil',
  '⌊': '\\lfloor',
  '⌋': '\\rfloor',
  '': '.',
};

/** A math run's own reading of ASCII that TeX takes as syntax; the rest is the shared table's. */
const RUN_CHARS: Readonly<Record<string, string>> = { '\\': '\\backslash', '^': '\\hat{}', '~': '\\sim' };

/** A property value such as `m:chr m:val="∑"` inside `m:naryPr`. */
function prop(node: XmlElement | undefined, pr: string, name: string): string | undefined {
  const el = kid(kid(node, pr), name);
  return el === undefined ? undefined : (attr(el, 'val') ?? '');
}

/** A script's base: braced unless it is one symbol, as a person writes `r^{2}`, not `{r}^{2}`. */
function base(node: XmlElement | undefined): string {
  const text = arg(node).trim();
  return /^([A-Za-z0-9]|\\[A-Za-z]+)$/.test(text) ? text : `{${text}}`;
}

function arg(node: XmlElement | undefined): string {
  return node === undefined ? '' : children(node);
}

function children(node: XmlElement): string {
  return kids(node)
    .map((c) => convert(c))
    .join('');
}

function run(node: XmlElement): string {
  const text = kids(node, 't')
    .map((t) => t.children.filter((c) => typeof c === 'string').join(''))
    .join('');
  // A multi-letter upright run that names a function is that function (`log`, not l·o·g).
  const plain = kid(kid(node, 'rPr'), 'sty') !== undefined && attr(kid(kid(node, 'rPr'), 'sty'), 'val') === 'p';
  if (OPERATOR_NAMES.has(text.trim())) return `\\${text.trim()} `;
  if (plain && /^[A-Za-z]{2,}$/.test(text.trim())) return `\\text{${text.trim()}}`;
  return symbolsLatex(text, RUN_CHARS);
}

function convert(node: XmlElement): string {
  switch (node.local) {
    case 'r':
      return run(node);
    case 'f': {
      const type = prop(node, 'fPr', 'type');
      const num = arg(kid(node, 'num'));
      const den = arg(kid(node, 'den'));
      if (type === 'noBar') return `\\genfrac{}{}{0pt}{}{${num}}{${den}}`;
      if (type === 'lin' || type === 'skw') return `${num}/${den}`;
      return `\\frac{${num}}{${den}}`;
    }
    case 'sSup':
      return `${base(kid(node, 'e'))}^{${arg(kid(node, 'sup'))}}`;
    case 'sSub':
      return `${base(kid(node, 'e'))}_{${arg(kid(node, 'sub'))}}`;
    case 'sSubSup':
      return `${base(kid(node, 'e'))}_{${arg(kid(node, 'sub'))}}^{${arg(kid(node, 'sup'))}}`;
    case 'sPre':
      return `{}_{${arg(kid(node, 'sub'))}}^{${arg(kid(node, 'sup'))}}{${arg(kid(node, 'e'))}}`;
    case 'rad': {
      const degree = arg(kid(node, 'deg'));
      return degree.trim() === '' ? `\\sqrt{${arg(kid(node, 'e'))}}` : `\\sqrt[${degree}]{${arg(kid(node, 'e'))}}`;
    }
    case 'nary': {
      const chr = prop(node, 'naryPr', 'chr') ?? '∫';
      const op = symbolLatex(chr) ?? symbolsLatex(chr, RUN_CHARS);
      const sub = arg(kid(node, 'sub'));
      const sup = arg(kid(node, 'sup'));
      return `${op}${sub.trim() === '' ? '' : `_{${sub}}`}${sup.trim() === '' ? '' : `^{${sup}}`} ${arg(kid(node, 'e'))}`;
    }
    case 'd': {
      const begin = prop(node, 'dPr', 'begChr') ?? '(';
      const end = prop(node, 'dPr', 'endChr') ?? ')';
      const sep = prop(node, 'dPr', 'sepChr') ?? '|';
      const inner = kids(node, 'e')
        .map(arg)
        .join(sep === '|' ? ' \\mid ' : symbolsLatex(sep, RUN_CHARS));
      return `\\left${DELIMITERS[begin] ?? '('}${inner}\\right${DELIMITERS[end] ?? ')'}`;
    }
    case 'func': {
      const name = arg(kid(node, 'fName')).trim();
      return `${name}{${arg(kid(node, 'e'))}}`;
    }
    case 'limLow':
      return `${arg(kid(node, 'e'))}_{${arg(kid(node, 'lim'))}}`;
    case 'limUpp':
      return `${arg(kid(node, 'e'))}^{${arg(kid(node, 'lim'))}}`;
    case 'acc': {
      const chr = prop(node, 'accPr', 'chr') ?? '̂';
      return `${COMBINING_ACCENTS[chr] ?? '\\hat'}{${arg(kid(node, 'e'))}}`;
    }
    case 'bar':
      return prop(node, 'barPr', 'pos') === 'bot' ? `\\underline{${arg(kid(node, 'e'))}}` : `\\overline{${arg(kid(node, 'e'))}}`;
    case 'groupChr':
      return `\\underbrace{${arg(kid(node, 'e'))}}`;
    case 'm': {
      const rows = kids(node, 'mr').map((r) => kids(r, 'e').map(arg).join(' & '));
      return `\\begin{matrix}${rows.join(' \\\\ ')}\\end{matrix}`;
    }
    case 'eqArr': {
      const rows = kids(node, 'e').map(arg);
      return rows.length === 1 ? rows[0]! : `\\begin{array}{l}${rows.join(' \\\\ ')}\\end{array}`;
    }
    case 'box':
    case 'borderBox':
    case 'phant':
    case 'e':
    case 'oMath':
    case 'num':
    case 'den':
    case 'sub':
    case 'sup':
    case 'deg':
    case 'lim':
    case 'fName':
      return children(node);
    default:
      // Property blocks (`m:fPr`, `w:rPr`, …) hold no text.
      return node.local.endsWith('Pr') ? '' : children(node);
  }
}

/**
 * LaTeX of an `m:oMath` (or `m:oMathPara`) element.
 *
 * @example
 * ommlToLatex(parseXml('<m:oMath><m:r><m:t>x</m:t></m:r></m:oMath>')) // 'x'
 */
export function ommlToLatex(node: XmlElement): string {
  if (node.local === 'oMathPara') return kids(node, 'oMath').map(convert).join(' \\\\ ').replace(/\s+/g, ' ').trim();
  return convert(node).replace(/\s+/g, ' ').trim();
}
