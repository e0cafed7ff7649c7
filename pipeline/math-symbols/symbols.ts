/**
 * Unicode → LaTeX, the one table every route that writes formulas reads: the layout stage for
 * glyphs of the text layer, the OMML and MathML converters for Word's and the web's math runs.
 * Past the hand-made table, KaTeX's own ({@link KATEX_SYMBOLS}): raw `℘ ℧ ℶ` are rejected inside
 * math, `\wp` is not, so a formula that reaches the KaTeX check keeps its symbols.
 */
import { KATEX_SYMBOLS } from './katex-symbols.ts';

/** Characters → the command a person writes for them (a minus for an en dash, `\ldots` for `…`). */
export const MATH_SYMBOLS: Readonly<Record<string, string>> = {
  α: '\\alpha',
  β: '\\beta',
  γ: '\\gamma',
  δ: '\\delta',
  // TeX's `\epsilon` is the lunate ϵ (U+03F5) and `\phi` the straight ϕ (U+03D5): the common ε and φ
  // are the `var` forms, as in KaTeX's table and unicode-math.
  ε: '\\varepsilon',
  ϵ: '\\epsilon',
  ζ: '\\zeta',
  η: '\\eta',
  θ: '\\theta',
  ϑ: '\\vartheta',
  ι: '\\iota',
  κ: '\\kappa',
  λ: '\\lambda',
  μ: '\\mu',
  ν: '\\nu',
  ξ: '\\xi',
  π: '\\pi',
  ρ: '\\rho',
  σ: '\\sigma',
  τ: '\\tau',
  υ: '\\upsilon',
  φ: '\\varphi',
  ϕ: '\\phi',
  χ: '\\chi',
  ψ: '\\psi',
  ω: '\\omega',
  Γ: '\\Gamma',
  Δ: '\\Delta',
  Θ: '\\Theta',
  Λ: '\\Lambda',
  Ξ: '\\Xi',
  Π: '\\Pi',
  Σ: '\\Sigma',
  Φ: '\\Phi',
  Ψ: '\\Psi',
  Ω: '\\Omega',
  // Look-alikes from other blocks: the ohm and micro signs.
  '\u2126': '\\Omega',
  µ: '\\mu',
  '∫': '\\int',
  '∬': '\\iint',
  '∮': '\\oint',
  '∑': '\\sum',
  '∏': '\\prod',
  '∐': '\\coprod',
  '⋃': '\\bigcup',
  '⋂': '\\bigcap',
  '⨁': '\\bigoplus',
  '⨂': '\\bigotimes',
  '∇': '\\nabla',
  '∂': '\\partial',
  '∞': '\\infty',
  ℏ: '\\hbar',
  ℓ: '\\ell',
  ℜ: '\\Re',
  ℑ: '\\Im',
  ℵ: '\\aleph',
  '∅': '\\emptyset',
  '∠': '\\angle',
  '¬': '\\neg',
  '†': '\\dagger',
  '×': '\\times',
  '⋅': '\\cdot',
  '·': '\\cdot',
  '÷': '\\div',
  '±': '\\pm',
  '∓': '\\mp',
  '−': '-',
  '–': '-',
  '∗': '*',
  '⊕': '\\oplus',
  '⊗': '\\otimes',
  '∧': '\\wedge',
  '∨': '\\vee',
  '∖': '\\setminus',
  '≤': '\\leq',
  '≥': '\\geq',
  '≠': '\\neq',
  '≈': '\\approx',
  '≡': '\\equiv',
  '≃': '\\simeq',
  '≅': '\\cong',
  '∝': '\\propto',
  '∼': '\\sim',
  '≪': '\\ll',
  '≫': '\\gg',
  '⊥': '\\perp',
  '∣': '\\mid',
  '∈': '\\in',
  '∉': '\\notin',
  '⊂': '\\subset',
  '⊆': '\\subseteq',
  '∪': '\\cup',
  '∩': '\\cap',
  '∀': '\\forall',
  '∃': '\\exists',
  '→': '\\rightarrow',
  '←': '\\leftarrow',
  '↦': '\\mapsto',
  '⇒': '\\Rightarrow',
  '⇔': '\\Leftrightarrow',
  '⟨': '\\langle',
  '⟩': '\\rangle',
  '⌊': '\\lfloor',
  '⌋': '\\rfloor',
  '⌈': '\\lceil',
  '⌉': '\\rceil',
  '‖': '\\|',
  '′': "'",
  // Core LaTeX; `\degree` (KaTeX's choice) needs the gensymb package elsewhere.
  '°': '^{\\circ}',
  '∘': '\\circ',
  '◦': '\\circ',
  '∥': '\\|',
  '⊢': '\\vdash',
  '⊙': '\\odot',
  '…': '\\ldots',
  '⋯': '\\cdots',
  '{': '\\{',
  '}': '\\}',
  '%': '\\%',
  '#': '\\#',
  '&': '\\&',
  _: '\\_',
  $: '\\$',
};

/** Upright words LaTeX has a command for (`\sin`, `\log`, `\max`). */
export const OPERATOR_NAMES: ReadonlySet<string> = new Set([
  'sin',
  'cos',
  'tan',
  'cot',
  'sec',
  'csc',
  'arcsin',
  'arccos',
  'arctan',
  'sinh',
  'cosh',
  'tanh',
  'coth',
  'log',
  'ln',
  'lg',
  'exp',
  'lim',
  'liminf',
  'limsup',
  'max',
  'min',
  'sup',
  'inf',
  'det',
  'dim',
  'ker',
  'deg',
  'arg',
  'gcd',
  'hom',
  'Pr',
  'mod',
]);

/** Combining accents (set after the letter they sit on) → the LaTeX accent over it. */
export const COMBINING_ACCENTS: Readonly<Record<string, string>> = {
  '\u0302': '\\hat',
  '\u0304': '\\bar',
  '\u0305': '\\bar',
  '\u0300': '\\grave',
  '\u0301': '\\acute',
  '\u0303': '\\tilde',
  '\u0307': '\\dot',
  '\u0308': '\\ddot',
  '\u030c': '\\check',
  '\u0306': '\\breve',
  '\u20d7': '\\vec',
};

/**
 * The LaTeX for one character, undefined where the character stands for itself.
 *
 * @example
 * symbolLatex('α') // '\\alpha'
 */
export function symbolLatex(char: string): string | undefined {
  return MATH_SYMBOLS[char] ?? KATEX_SYMBOLS[char];
}

/**
 * Text of a math run with each character written as its command, a space after a control word so
 * it cannot run into the next letter (`\pi r`, not `\pir`). `overrides` come first: a route's
 * own reading of a character (MathML's invisible operators are nothing).
 *
 * @example
 * symbolsLatex('πr≤1') // '\\pi r\\leq 1'
 */
export function symbolsLatex(text: string, overrides: Readonly<Record<string, string>> = {}): string {
  let out = '';
  for (const c of text) {
    const latex = overrides[c] ?? symbolLatex(c);
    out += latex === undefined ? c : /\\[A-Za-z]+$/.test(latex) ? `${latex} ` : latex;
  }
  return out;
}
