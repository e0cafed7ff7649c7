/**
 * MathML (`<math>` in HTML, XHTML and EPUB) to LaTeX: the TeX annotation or `alttext` when the
 * page carries one, else the presentation elements converted (scripts, fractions, roots, over and
 * under marks, tables, fenced groups).
 */
import type { ElementContent, Element as HastElement } from 'hast';
import { symbolsLatex } from '../math-symbols/index.ts';

/** Invisible operators (function application, invisible times) say nothing in LaTeX. */
const INVISIBLE: Readonly<Record<string, string>> = { '\u2061': '', '\u2062': '' };

function text(node: ElementContent): string {
  if (node.type === 'text') return node.value;
  return node.type === 'element' ? node.children.map(text).join('') : '';
}

function symbols(value: string): string {
  return symbolsLatex(value.trim(), INVISIBLE);
}

function elements(node: HastElement): HastElement[] {
  return node.children.filter((c): c is HastElement => c.type === 'element');
}

function convert(node: ElementContent, depth = 0): string {
  if (node.type === 'text') return symbols(node.value);
  if (node.type !== 'element' || depth > 64) return '';
  const kids = elements(node);
  const arg = (i: number): string => (kids[i] ? convert(kids[i]!, depth + 1) : '');
  switch (node.tagName) {
    case 'mi': {
      const value = text(node).trim();
      return value.length > 1 ? `\\mathrm{${value}}` : symbols(value);
    }
    case 'mn':
    case 'mo':
      return symbols(text(node));
    case 'mtext':
      return `\\text{${text(node).replace(/[{}\\]/g, '')}}`;
    case 'msup':
      return `{${arg(0)}}^{${arg(1)}}`;
    case 'msub':
      return `{${arg(0)}}_{${arg(1)}}`;
    case 'msubsup':
      return `{${arg(0)}}_{${arg(1)}}^{${arg(2)}}`;
    case 'mfrac':
      return `\\frac{${arg(0)}}{${arg(1)}}`;
    case 'msqrt':
      return `\\sqrt{${kids.map((k) => convert(k, depth + 1)).join('')}}`;
    case 'mroot':
      return `\\sqrt[${arg(1)}]{${arg(0)}}`;
    case 'mover':
      return `\\overset{${arg(1)}}{${arg(0)}}`;
    case 'munder':
      return `\\underset{${arg(1)}}{${arg(0)}}`;
    case 'munderover':
      return `{${arg(0)}}_{${arg(1)}}^{${arg(2)}}`;
    case 'mfenced': {
      const open = String(node.properties['open'] ?? '(');
      const close = String(node.properties['close'] ?? ')');
      return `\\left${open === '{' ? '\\{' : open}${kids.map((k) => convert(k, depth + 1)).join(',')}\\right${close === '}' ? '\\}' : close}`;
    }
    case 'mtable':
      return `\\begin{matrix}${kids
        .map((row) =>
          elements(row)
            .map((cell) => convert(cell, depth + 1))
            .join(' & '),
        )
        .join(' \\\\ ')}\\end{matrix}`;
    case 'annotation':
    case 'annotation-xml':
      return '';
    default:
      return node.children.map((c) => convert(c, depth + 1)).join('');
  }
}

function findTex(node: HastElement): string | undefined {
  for (const c of elements(node)) {
    if (c.tagName === 'annotation' && /tex/i.test(String(c.properties['encoding'] ?? ''))) return text(c).trim();
    const inner = findTex(c);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/**
 * @example
 * mathmlToLatex(mathElement) // 'x^{2}'
 */
export function mathmlToLatex(math: HastElement): string {
  const alt = math.properties['alttext'] ?? math.properties['altText'];
  return (findTex(math) ?? (typeof alt === 'string' && alt.trim() !== '' ? alt.trim() : undefined) ?? convert(math)).replace(/\s+/g, ' ').trim();
}

/** True for `<math display="block">`. */
export function isDisplayMath(math: HastElement): boolean {
  return String(math.properties['display'] ?? '') === 'block' || String(math.properties['mode'] ?? '') === 'display';
}
