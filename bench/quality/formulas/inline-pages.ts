/**
 * Pages of inline formulas with scripts (`--set formulas`): subscripted letters, operator names
 * with a subscript (`\operatorname{Ann}_R(x_i)`) and big operators with limits set beside them in
 * text style (`\sum_{i=1}^{n}`), as papers write them in running prose. The formulas are built by
 * combining parts in a fixed order (no randomness), so that every font family gets the same ones
 * and the kinds mix on each page; scripts then fall on every position of a line, the last line of
 * a paragraph included.
 */
import type { PageFormula } from './pages.ts';

const LETTERS = ['x', 'a', '\\lambda', 'u', 'b', '\\mu', 'f', '\\sigma', 'y', 'c', '\\alpha', 'v'];
const INDICES = ['i', 'g', 'k', 'ij', 'n', '0', 'j', 'i+1', 't', 'n-1', 'm', '2'];
const OPERATORS = ['\\sum', '\\prod'];
const LOWER = ['i=1', 'k=0', 'j=1', 'n=1', 'i\\in I', 'j=0'];
const UPPER = ['n', 'k', 'm', 'N', '\\infty', 'r'];
const BODIES = ['a_{i}', 'x_{k}^{2}', 'c(g, x_{j})', 'f(x_{n})', '\\lambda_{i} x_{i}', 'b_{ij}', 'p_{k}', '(1+t_{j})'];
// Names LaTeX has no command for: `\operatorname{dim}` would print as `\dim` does and read back as it.
const NAMES = ['Ann', 'rank', 'Hom', 'Tr', 'Ext', 'End'];
const NAME_SUBS = ['R', 'k', 'A', 'K', 'S', 'F'];
const NAME_ARGS = ['(x_{i})', '(M)', '(M, N)', '(a_{j})', '(V)', '(E_{n})'];

/** The n-th formula of a kind: each part list is walked at its own pace, so combinations vary. */
function scripted(n: number): PageFormula {
  const letter = LETTERS[n % LETTERS.length]!;
  const index = INDICES[(n * 5) % INDICES.length]!;
  const other = LETTERS[(n * 7 + 3) % LETTERS.length]!;
  const forms = [
    `${letter}_{${index}}`,
    `${letter}_{${index}} = ${other}_{${INDICES[(n + 4) % INDICES.length]}}`,
    `${letter}_{${index}}^{2} + ${other}_{${index}}`,
  ];
  return { latex: forms[n % forms.length]!, kind: 'inline-subscript', display: false };
}

function bigOperator(n: number): PageFormula {
  const op = OPERATORS[n % OPERATORS.length]!;
  const limits = `_{${LOWER[n % LOWER.length]}}^{${UPPER[(n * 5) % UPPER.length]}}`;
  const body = BODIES[(n * 3) % BODIES.length]!;
  const letter = LETTERS[(n * 5 + 2) % LETTERS.length]!;
  const forms = [`${op}${limits} ${body}`, `${letter}_{${INDICES[n % INDICES.length]}} = ${op}${limits} ${body}`];
  return { latex: forms[n % forms.length]!, kind: 'inline-bigop', display: false };
}

function operatorName(n: number): PageFormula {
  const k = n % NAMES.length;
  const name = `\\operatorname{${NAMES[k]}}_{${NAME_SUBS[(n * 5) % NAME_SUBS.length]}}${NAME_ARGS[k]}`;
  const forms = [name, `R / ${name}`];
  return { latex: forms[n % forms.length]!, kind: 'inline-opname', display: false };
}

/** Sentences that carry two inline formulas each (`{0}`, `{1}`). */
export const INLINE_PROSE = [
  'By the previous lemma we have {0} for every index, and hence {1} holds as well.',
  'Recall that {0} denotes the induced map; we conclude that {1}.',
  'Since {0} is bounded on the whole interval, the estimate {1} follows at once.',
  'It is easy to check that {0}, while the quantity {1} remains unchanged under this operation.',
  'Setting {0} in the identity above gives {1}, which is the claim.',
  'The term {0} vanishes, so that only {1} contributes to the limit considered here.',
];

/**
 * `count` inline formulas, the three kinds in turn.
 *
 * @example
 * inlineScriptFormulas(3).map((f) => f.kind) // ['inline-subscript', 'inline-bigop', 'inline-opname']
 */
export function inlineScriptFormulas(count: number): PageFormula[] {
  const makers = [scripted, bigOperator, operatorName];
  return Array.from({ length: count }, (_, i) => makers[i % makers.length]!(Math.floor(i / makers.length)));
}
