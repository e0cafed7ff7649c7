import type { FormulaData } from '../../core/types.ts';
import { onFirstUse } from './on-first-use.ts';

const loadKatex = onFirstUse<typeof import('katex')>('katex');

// KaTeX's parser alone (no HTML building) is five times faster than `renderToString` and raises
// the same ParseError; fall back to rendering if a KaTeX release drops the internal entry point.
type KatexParse = (latex: string, settings: Record<string, unknown>) => unknown;
let katexParse: KatexParse | undefined;

function katexParser(): KatexParse {
  if (katexParse === undefined) {
    const katex = loadKatex().default;
    katexParse =
      typeof (katex as unknown as { __parse?: unknown }).__parse === 'function'
        ? (katex as unknown as { __parse: KatexParse }).__parse
        : (latex, settings) => katex.renderToString(latex, settings);
  }
  return katexParse;
}

/**
 * A formula as Folio stores it: LaTeX trimmed, validated by KaTeX, with a plain-text rendering.
 *
 * @example
 * makeFormula({ latex: '\\frac{a}{b}', display: true }).text // 'a/b'
 */
export function makeFormula({ latex, display }: Readonly<{ latex: string; display: boolean }>): FormulaData {
  const clean = latex.trim();
  const text = latexToText(clean);
  if (clean === '') return { latex: clean, display, valid: false, error: 'empty formula', text };
  // Outside the `try`: KaTeX failing to load is not a bad formula.
  const parse = katexParser();
  try {
    parse(clean, { displayMode: display, throwOnError: true, strict: 'ignore', trust: false, maxExpand: 1000 });
    return { latex: clean, display, valid: true, text };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { latex: clean, display, valid: false, error: message.replace(/\s+/gu, ' ').slice(0, 200), text };
  }
}

const symbols: Readonly<Record<string, string>> = {
  alpha: 'α',
  beta: 'β',
  gamma: 'γ',
  delta: 'δ',
  epsilon: 'ε',
  varepsilon: 'ε',
  zeta: 'ζ',
  eta: 'η',
  theta: 'θ',
  vartheta: 'θ',
  iota: 'ι',
  kappa: 'κ',
  lambda: 'λ',
  mu: 'μ',
  nu: 'ν',
  xi: 'ξ',
  pi: 'π',
  rho: 'ρ',
  sigma: 'σ',
  tau: 'τ',
  upsilon: 'υ',
  phi: 'φ',
  varphi: 'φ',
  chi: 'χ',
  psi: 'ψ',
  omega: 'ω',
  Gamma: 'Γ',
  Delta: 'Δ',
  Theta: 'Θ',
  Lambda: 'Λ',
  Xi: 'Ξ',
  Pi: 'Π',
  Sigma: 'Σ',
  Phi: 'Φ',
  Psi: 'Ψ',
  Omega: 'Ω',
  rightarrow: '→',
  to: '→',
  leftarrow: '←',
  gets: '←',
  Rightarrow: '⇒',
  Leftarrow: '⇐',
  leftrightarrow: '↔',
  Leftrightarrow: '⇔',
  mapsto: '↦',
  cdot: '·',
  cdots: '⋯',
  ldots: '…',
  dots: '…',
  times: '×',
  div: '÷',
  pm: '±',
  mp: '∓',
  leq: '≤',
  le: '≤',
  geq: '≥',
  ge: '≥',
  neq: '≠',
  ne: '≠',
  approx: '≈',
  sim: '∼',
  simeq: '≃',
  equiv: '≡',
  propto: '∝',
  infty: '∞',
  partial: '∂',
  nabla: '∇',
  sum: '∑',
  prod: '∏',
  int: '∫',
  oint: '∮',
  in: '∈',
  notin: '∉',
  subset: '⊂',
  subseteq: '⊆',
  supset: '⊃',
  cup: '∪',
  cap: '∩',
  forall: '∀',
  exists: '∃',
  neg: '¬',
  wedge: '∧',
  land: '∧',
  vee: '∨',
  lor: '∨',
  emptyset: '∅',
  circ: '∘',
  degree: '°',
  prime: '′',
  ell: 'ℓ',
  hbar: 'ℏ',
  star: '⋆',
  ast: '∗',
  langle: '⟨',
  rangle: '⟩',
  mid: '|',
  vert: '|',
  Vert: '‖',
  quad: ' ',
  qquad: ' ',
  '%': '%',
  $: '$',
  '&': '&',
  '#': '#',
  _: '_',
  '{': '{',
  '}': '}',
  ',': ' ',
  ';': ' ',
  ':': ' ',
  '!': '',
  ' ': ' ',
  '\\': ' ',
};
// Commands whose braces only style their argument: keep the argument.
const wrappers =
  /\\(?:mathrm|mathbf|mathit|mathsf|mathtt|mathcal|mathbb|mathfrak|boldsymbol|text|textbf|textit|textrm|operatorname|mbox|hbox|bm|mathring|hat|bar|tilde|vec|dot|ddot|overline|underline|widehat|widetilde)\s*\{([^{}]*)\}/gu;
const sizing = /\\(?:left|right|big|Big|bigg|Bigg|bigl|bigr|Bigl|Bigr|displaystyle|textstyle|scriptstyle|limits|nolimits)\b/gu;

/**
 * A plain-text rendering of LaTeX for BM25 and embeddings: Greek and operators as Unicode,
 * `\frac{a}{b}` as `a/b`, styling commands dropped. Lossy by design.
 *
 * @example
 * latexToText('\\alpha \\rightarrow \\beta') // 'α → β'
 */
export function latexToText(latex: string): string {
  let text = latex.replace(sizing, '');
  for (let pass = 0; pass < 4 && text.includes('{'); pass++) {
    const before = text;
    text = text
      .replace(wrappers, '$1')
      .replace(/\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}/gu, '($1)/($2)')
      .replace(/\\sqrt\s*\{([^{}]*)\}/gu, '√($1)')
      .replace(/\^\{([^{}]*)\}/gu, '^($1)')
      .replace(/_\{([^{}]*)\}/gu, '_($1)');
    if (text === before) break;
  }
  text = text
    .replace(/\\([A-Za-z]+)|\\([^A-Za-z])/gu, (_m, name: string | undefined, char: string | undefined) => {
      const key = name ?? char ?? '';
      return symbols[key] ?? (name !== undefined ? ` ${name} ` : key);
    })
    .replace(/\((\w)\)/gu, '$1')
    .replace(/[{}]/gu, ' ')
    .replace(/&/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
  return text;
}
