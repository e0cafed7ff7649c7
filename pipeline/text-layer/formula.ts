/**
 * Formulas from the text layer: a line that reads as mathematics is rebuilt as LaTeX from its
 * glyph geometry — pieces set smaller above the baseline are superscripts, below it subscripts,
 * a piece above the baseline over one below it is a fraction, and one-token lines just above and
 * below an integral or sum sign are its limits. The LaTeX is kept only when KaTeX parses it;
 * otherwise the line stays text.
 */
import { makeFormula } from '../markdown/latex.ts';
import type { Line, Piece } from './types.ts';

/** Unicode the text layer hands out → LaTeX. */
const SYMBOLS: Readonly<Record<string, string>> = {
  α: '\\alpha',
  β: '\\beta',
  γ: '\\gamma',
  δ: '\\delta',
  ε: '\\varepsilon',
  ϵ: '\\epsilon',
  ζ: '\\zeta',
  η: '\\eta',
  θ: '\\theta',
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
  φ: '\\phi',
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
  '∫': '\\int',
  '∑': '\\sum',
  '∏': '\\prod',
  '√': '\\sqrt',
  '∇': '\\nabla',
  '∂': '\\partial',
  '∞': '\\infty',
  '×': '\\times',
  '⋅': '\\cdot',
  '·': '\\cdot',
  '÷': '\\div',
  '±': '\\pm',
  '∓': '\\mp',
  '−': '-',
  '–': '-',
  '≤': '\\leq',
  '≥': '\\geq',
  '≠': '\\neq',
  '≈': '\\approx',
  '≡': '\\equiv',
  '∝': '\\propto',
  '∼': '\\sim',
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
  '⇒': '\\Rightarrow',
  '⇔': '\\Leftrightarrow',
  '′': "'",
  '∘': '\\circ',
  '…': '\\ldots',
  '{': '\\{',
  '}': '\\}',
  '%': '\\%',
  '#': '\\#',
  '&': '\\&',
  _: '\\_',
  $: '\\$',
};

const MATH_SIGNAL = /[∫∑∏√∇∂∞×⋅÷±∓≤≥≠≈≡∝∈⊂∪∩∀∃→⇒α-ωΓ-Ω]/u;
const RELATION = /[=≈≠≤≥∝≡<>]/u;
const BIG_OPERATOR = /[∫∑∏]/u;
/** Words that may appear in a formula (function names). */
const FUNCTION_WORDS = /^(?:sin|cos|tan|log|ln|exp|lim|max|min|det|sup|inf|mod|arg)$/i;

/** A line is mathematics: a relation or big operator, a math signal, and hardly any prose. */
export function formulaLike(line: Line, bodySize = line.size): boolean {
  // Most lines have no relation or big operator: they leave here without an allocation.
  if (!(RELATION.test(line.text) || BIG_OPERATOR.test(line.text))) return false;
  const text = line.text.replace(/\u200b/g, '');
  // A row of small type is the limits or scripts of a formula next to it, not one of its own.
  if (line.size < 0.9 * bodySize) return false;
  if (text.length > 160 || !(RELATION.test(text) || BIG_OPERATOR.test(text))) return false;
  const scripted = piecesOf(line).some((p) => Math.abs(p.y - line.y) > 0.2 * line.size);
  if (!MATH_SIGNAL.test(text) && !scripted) return false;
  const words = (text.match(/\p{L}{3,}/gu) ?? []).filter((w) => !FUNCTION_WORDS.test(w));
  return words.length <= 1;
}

function piecesOf(line: Line): Piece[] {
  return line.fragments.flatMap((f) => f.pieces ?? [{ text: f.text, x0: f.x0, x1: f.x1, y: f.y, size: f.size }]);
}

function toLatex(text: string): string {
  let out = '';
  for (const c of text.replace(/\u200b/g, '').trim()) {
    const mapped = SYMBOLS[c];
    // A command before a letter needs a space (`\pi x`, not `\pix`).
    if (/\\[a-zA-Z]+$/.test(out) && /^[a-zA-Z]/.test(mapped ?? c)) out += ' ';
    out += mapped ?? c;
  }
  return out;
}

const group = (latex: string): string => (latex.length === 1 ? latex : `{${latex}}`);

/**
 * A formula line (with the one-token lines just above and below it, for limits) → LaTeX, or
 * undefined when KaTeX rejects what came out.
 *
 * @example
 * formulaLatex(line)?.latex // 'e^{i \\pi} + 1 = 0'
 */
export function formulaLatex(line: Line, above?: Line, below?: Line): { latex: string; above: boolean; below: boolean } | undefined {
  const pieces = piecesOf(line).sort((p, q) => p.x0 - q.x0);
  if (pieces.length === 0) return undefined;
  const main = pieces.reduce((best, p) => (p.size > best.size || (p.size === best.size && p.text.length > best.text.length) ? p : best));
  const base = main.y;
  const size = main.size;
  const used = new Set<Piece>();
  let out = '';
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!;
    if (used.has(p)) continue;
    const shift = p.y - base;
    if (shift < -0.3 * size && p.size >= 0.85 * size) {
      // Above the baseline at full size: the numerator of a fraction whose denominator overlaps it below.
      const denominator = pieces.find((q) => !used.has(q) && q !== p && q.y - base > 0.3 * size && Math.min(q.x1, p.x1) - Math.max(q.x0, p.x0) > 0);
      if (denominator !== undefined) {
        used.add(denominator);
        out += ` \\frac{${toLatex(p.text)}}{${toLatex(denominator.text)}}`;
        continue;
      }
    }
    const latex = toLatex(p.text);
    if (latex === '') continue;
    if (p.size < 0.92 * size && shift < -0.15 * size) out += `^${group(latex)}`;
    else if (p.size < 0.92 * size && shift > 0.08 * size) out += `_${group(latex)}`;
    else out += (out === '' ? '' : ' ') + latex;
  }
  // Limits of an integral or sum set on lines of their own, right over and under the sign.
  const sign = pieces.find((p) => BIG_OPERATOR.test(p.text));
  let usedAbove = false;
  let usedBelow = false;
  if (sign !== undefined) {
    const near = (l: Line | undefined): string | undefined =>
      l !== undefined && l.text.trim().length <= 8 && l.size < 1.1 * size && Math.abs(l.y - base) < 2.5 * size && l.x0 < sign.x1 + size && l.x1 > sign.x0 - size
        ? toLatex(l.text)
        : undefined;
    const lower = near(below);
    const upper = near(above);
    const command = SYMBOLS[Array.from(sign.text.trim())[0] ?? ''] ?? '';
    if (command !== '' && (lower !== undefined || upper !== undefined)) {
      usedAbove = upper !== undefined;
      usedBelow = lower !== undefined;
      out = out.replace(command, `${command}${lower === undefined ? '' : `_${group(lower)}`}${upper === undefined ? '' : `^${group(upper)}`}`);
    }
  }
  const formula = makeFormula({ latex: out.replace(/\s+/g, ' ').trim(), display: true });
  return formula.valid ? { latex: formula.latex, above: usedAbove, below: usedBelow } : undefined;
}
