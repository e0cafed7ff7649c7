/**
 * Formulas for the factory's papers: equations of the kind papers print, written here, beside the
 * formula model's held-out synthetic list (`training/formula/data/heldout-synthetic.tsv`, never
 * trained on). Each LaTeX string is typeset as is, so it is its own truth.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderMathml } from '../../olmocr/math.ts';
import type { Random } from '../../scans/random.ts';

const HELDOUT = fileURLToPath(new URL('../../../training/formula/data/heldout-synthetic.tsv', import.meta.url));

/** Display equations as papers print them. */
const DISPLAY = [
  'f(x)=\\sum_{i=1}^{n} a_i x^{i}',
  '\\mathcal{L}(\\theta)=-\\frac{1}{N}\\sum_{n=1}^{N}\\log p_\\theta(y_n\\mid x_n)',
  '\\hat{\\beta}=(X^{\\top}X+\\lambda I)^{-1}X^{\\top}y',
  '\\int_{0}^{\\infty} e^{-t^{2}}\\,dt=\\frac{\\sqrt{\\pi}}{2}',
  'P(A\\mid B)=\\frac{P(B\\mid A)\\,P(A)}{P(B)}',
  '\\|x-y\\|_{2}\\leq\\|x-z\\|_{2}+\\|z-y\\|_{2}',
  '\\operatorname{softmax}(z)_{i}=\\frac{e^{z_i}}{\\sum_{j=1}^{K}e^{z_j}}',
  '\\frac{\\partial u}{\\partial t}=\\alpha\\frac{\\partial^{2}u}{\\partial x^{2}}',
  'T(n)=2\\,T\\!\\left(\\frac{n}{2}\\right)+O(n)',
  '\\mathbb{E}[X]=\\sum_{x\\in\\mathcal{X}}x\\,p(x)',
  '\\operatorname{Var}(X)=\\mathbb{E}\\left[(X-\\mu)^{2}\\right]',
  'H(p)=-\\sum_{i=1}^{k}p_i\\log_{2}p_i',
  '\\theta_{t+1}=\\theta_{t}-\\eta\\,\\nabla_{\\theta}\\mathcal{L}(\\theta_{t})',
  '\\lim_{n\\to\\infty}\\left(1+\\frac{1}{n}\\right)^{n}=e',
  'A=\\begin{pmatrix}a_{11}&a_{12}\\\\a_{21}&a_{22}\\end{pmatrix}',
  '\\det(A-\\lambda I)=0',
  'F_1=\\frac{2\\,PR}{P+R}',
  '|f(x)-f(y)|\\leq L\\,|x-y|',
  'x^{*}=\\arg\\min_{x\\in\\mathbb{R}^{d}}\\;\\frac{1}{2}\\|Ax-b\\|_{2}^{2}',
  '\\sigma(x)=\\frac{1}{1+e^{-x}}',
  '\\binom{n}{k}=\\frac{n!}{k!\\,(n-k)!}',
  'd(p,q)=\\sqrt{\\sum_{i=1}^{n}(q_i-p_i)^{2}}',
  '\\hat{f}(\\xi)=\\int_{-\\infty}^{\\infty}f(x)\\,e^{-2\\pi i x\\xi}\\,dx',
  '\\operatorname{sim}(u,v)=\\frac{u\\cdot v}{\\|u\\|\\,\\|v\\|}',
  'S_n=\\frac{n(n+1)}{2}',
  '\\Pr\\left[|X-\\mu|\\geq k\\sigma\\right]\\leq\\frac{1}{k^{2}}',
];

/** Short formulas set inside sentences. */
const INLINE = [
  'x\\in\\mathbb{R}^{n}',
  'n\\geq 1',
  '\\alpha>0',
  'O(n\\log n)',
  'p(y\\mid x)',
  '\\|u\\|_{2}\\leq C',
  '0<\\epsilon<1',
  'f:X\\to Y',
  'k=1,\\dots,K',
  '\\lambda_{\\max}',
  'x_{i}^{2}',
  '\\mathcal{O}(1)',
  'A\\subseteq B',
  '\\sum_{i}w_i=1',
  '\\theta^{*}',
  'e^{-\\lambda t}',
  '\\sqrt{2}',
  'i\\neq j',
  'G=(V,E)',
  '|V|=n',
  '\\delta\\to 0',
  '\\frac{1}{2}',
  'T_{\\mathrm{max}}',
  'm\\times n',
];

/** Held-out formulas the renderer or KaTeX cannot take: non-ASCII, KaTeX-only macros. */
const UNSUPPORTED = /\\degree|[^\x20-\x7e]/;
/** Symbols a font package's math fonts lack (pdflatex stops on them). */
const MISSING: Readonly<Record<string, RegExp>> = { times: /\\(?:jmath|amalg|coprod)(?![a-zA-Z])/ };

let heldout: { display: string[]; inline: string[] } | undefined;

/** The held-out list, split into display and short inline formulas (read once per process). */
function heldoutPools(): { display: string[]; inline: string[] } {
  if (heldout) return heldout;
  const rows = readFileSync(HELDOUT, 'utf8')
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t')[0]?.trim() ?? '')
    .filter((l) => l !== '' && !UNSUPPORTED.test(l) && renderMathml(l) !== undefined);
  heldout = {
    // Long ones overflow a column; the pages stay paper-like.
    display: rows.filter((l) => l.length <= 60),
    inline: rows.filter((l) => l.length <= 24 && !l.includes('\\begin')),
  };
  return heldout;
}

/**
 * One formula for a page set in `font` (a key of the papers' fonts: `times` leaves out what
 * mathptmx cannot set): a written one three times in five, a held-out one otherwise.
 *
 * @example
 * drawFormula(random, 'cm', true) // 'H(p)=-\\sum_{i=1}^{k}p_i\\log_{2}p_i'
 */
export function drawFormula(random: Random, font: string, display: boolean): string {
  const missing = MISSING[font];
  const held = heldoutPools();
  for (;;) {
    const pool = random.next() < 0.6 ? (display ? DISPLAY : INLINE) : display ? held.display : held.inline;
    const latex = random.pick(pool);
    if (missing?.test(latex) !== true) return latex;
  }
}
