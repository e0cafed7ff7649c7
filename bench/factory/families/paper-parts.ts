/**
 * The parts of a factory paper, each written twice at once: the LaTeX that prints it and the truth
 * of what prints (section numbers, `Theorem 2.`, `Table 1:` as LaTeX sets them).
 */

import type { Random } from '../../scans/random.ts';
import type { Corpus } from '../corpus/index.ts';
import type { TruthBlock } from '../types.ts';
import { drawFormula } from './formulas.ts';
import { escapeLatex } from './latex.ts';

export type SectionNumbering = 'none' | 'plain' | 'dotted' | 'roman';

const ROMAN: readonly [number, string][] = [
  [10, 'X'],
  [9, 'IX'],
  [5, 'V'],
  [4, 'IV'],
  [1, 'I'],
];
/** `n` (1–39) in capital Roman numerals, as `\Roman` prints it. */
export function roman(n: number): string {
  let out = '';
  let left = n;
  for (const [value, letters] of ROMAN)
    while (left >= value) {
      out += letters;
      left -= value;
    }
  return out;
}

/** The section's number as printed inside labels (`2`, `II`). */
export const sectionNumber = (d: PaperDraft): string => (d.numbering === 'roman' ? roman(d.section) : `${d.section}`);

/** A paper being written: its LaTeX body, its truth and LaTeX's counters as they stand. */
export interface PaperDraft {
  readonly random: Random;
  readonly corpus: Corpus;
  /** A key of the papers' fonts, for formulas the font cannot set. */
  readonly font: string;
  readonly columns: 1 | 2;
  /** How sections are numbered: `none` (`\section*`), `1 Intro`, `1. Intro`, `I. Intro` with `A. Method`. */
  readonly numbering: SectionNumbering;
  /** Theorems numbered within sections (`Theorem 2.1`). */
  readonly theoremsBySection: boolean;
  readonly tex: string[];
  readonly blocks: TruthBlock[];
  section: number;
  subsection: number;
  theorem: number;
  table: number;
  /** Characters of text still wanted (the planned length). */
  budget: number;
}

const PROSE = new WeakMap<Corpus, readonly string[]>();

/** Prose the corpus gives without anything LaTeX or the truth would read otherwise (`$`, backslashes) or that cannot break across a column. */
export function prose(corpus: Corpus): readonly string[] {
  let pool = PROSE.get(corpus);
  if (pool === undefined) {
    pool = corpus.paragraphs.filter((p) => p.length >= 60 && !/[$\\]/.test(p) && !/\S{27,}/.test(p));
    PROSE.set(corpus, pool);
  }
  return pool;
}

const MATH_SENTENCES = [
  'Here $A$ denotes the quantity of interest.',
  'Throughout this part we assume $A$.',
  'In the worst case the cost grows as $A$.',
  'This holds whenever $A$ and $B$.',
  'Let $A$ be fixed; then $B$ follows directly.',
  'We write $A$ for the estimate obtained in this way.',
  'The same argument applies to $A$ with only minor changes.',
];

/** A paragraph of two or three corpus paragraphs, with a sentence carrying inline formulas one time in `mathRate`. */
export function paragraph(d: PaperDraft, mathRate: number): void {
  const pool = prose(d.corpus);
  const parts = d.corpus.draw(d.random, pool, 2 + Math.floor(d.random.next() * 2));
  let tex = escapeLatex(parts.join(' '));
  let text = parts.join(' ');
  if (d.random.next() < mathRate) {
    const sentence = d.random.pick(MATH_SENTENCES);
    const a = drawFormula(d.random, d.font, false);
    const b = drawFormula(d.random, d.font, false);
    const filled = sentence.replace('$A$', `$${a}$`).replace('$B$', `$${b}$`);
    tex += ` ${filled}`;
    text += ` ${filled}`;
  }
  d.tex.push(`${tex}\n`);
  d.blocks.push({ kind: 'paragraph', text });
  d.budget -= text.length;
}

/** A section or subsection heading, with the number LaTeX prints before it. */
export function heading(d: PaperDraft, title: string, level: 2 | 3): void {
  const command = level === 2 ? 'section' : 'subsection';
  let number = '';
  if (d.numbering !== 'none') {
    if (level === 2) {
      d.section += 1;
      d.subsection = 0;
      // amsthm's `[section]` counter starts again in each section.
      if (d.theoremsBySection) d.theorem = 0;
    } else d.subsection += 1;
    const s = sectionNumber(d);
    if (d.numbering === 'roman') number = level === 2 ? `${s}. ` : `${String.fromCharCode(64 + d.subsection)}. `;
    else {
      const n = level === 2 ? s : `${s}.${d.subsection}`;
      number = d.numbering === 'dotted' ? `${n}. ` : `${n} `;
    }
  }
  d.tex.push(`\\${command}${d.numbering === 'none' ? '*' : ''}{${escapeLatex(title)}}\n`);
  d.blocks.push({ kind: 'heading', level, text: `${number}${title}` });
  d.budget -= 80;
}

/** A display equation (unnumbered: the truth is its LaTeX alone). */
export function display(d: PaperDraft): void {
  const latex = drawFormula(d.random, d.font, true);
  d.tex.push(`\\[\n${latex}\n\\]\n`);
  d.blocks.push({ kind: 'formula', latex });
  d.budget -= 250;
}

const THEOREM_KINDS = [
  { env: 'theorem', label: 'Theorem' },
  { env: 'lemma', label: 'Lemma' },
  { env: 'proposition', label: 'Proposition' },
  { env: 'corollary', label: 'Corollary' },
  { env: 'definition', label: 'Definition' },
  { env: 'remark', label: 'Remark' },
] as const;

/** The preamble lines that declare the environments (one shared counter, as many papers use). */
export function theoremPreamble(bySection: boolean): string[] {
  return [
    `\\newtheorem{theorem}{Theorem}${bySection ? '[section]' : ''}`,
    '\\newtheorem{lemma}[theorem]{Lemma}',
    '\\newtheorem{proposition}[theorem]{Proposition}',
    '\\newtheorem{corollary}[theorem]{Corollary}',
    '\\theoremstyle{definition}',
    '\\newtheorem{definition}[theorem]{Definition}',
    '\\theoremstyle{remark}',
    '\\newtheorem{remark}[theorem]{Remark}',
  ];
}

const STATEMENTS = [
  'Let $A$. Then $B$ holds for every admissible choice.',
  'If $A$, then $B$.',
  'Suppose $A$. Then there is a constant such that $B$.',
  'For all $A$ we have $B$.',
  'Assume $A$ and $B$. Then the procedure terminates.',
];
const NOTES = ['Stability', 'Convergence', 'Uniqueness', 'Main result', 'Monotonicity', 'Existence'];

/**
 * A theorem-like statement, printed `Theorem 3 (Stability).` before its text: the truth is a
 * paragraph that starts with that label. Theorems and lemmas may be followed by a proof (`Proof.`).
 */
export function theorem(d: PaperDraft): void {
  const kind = d.random.pick(THEOREM_KINDS);
  d.theorem += 1;
  const number = d.theoremsBySection ? `${sectionNumber(d)}.${d.theorem}` : `${d.theorem}`;
  const note = d.random.next() < 0.3 ? d.random.pick(NOTES) : undefined;
  let statement: string;
  if (kind.env === 'remark') statement = d.corpus.draw(d.random, prose(d.corpus), 1)[0]!;
  else
    statement = d.random
      .pick(STATEMENTS)
      .replace('$A$', `$${drawFormula(d.random, d.font, false)}$`)
      .replace('$B$', `$${drawFormula(d.random, d.font, false)}$`);
  const texStatement = kind.env === 'remark' ? escapeLatex(statement) : statement;
  d.tex.push(`\\begin{${kind.env}}${note ? `[${note}]` : ''}\n${texStatement}\n\\end{${kind.env}}\n`);
  d.blocks.push({ kind: 'paragraph', text: `${kind.label} ${number}${note ? ` (${note})` : ''}. ${statement}` });
  d.budget -= statement.length + 60;
  if ((kind.env === 'theorem' || kind.env === 'lemma') && d.random.next() < 0.7) {
    const [reason] = d.corpus.draw(d.random, prose(d.corpus), 1);
    const closing = `Hence $${drawFormula(d.random, d.font, false)}$.`;
    d.tex.push(`\\begin{proof}\n${escapeLatex(reason!)} ${closing}\n\\end{proof}\n`);
    d.blocks.push({ kind: 'paragraph', text: `Proof. ${reason} ${closing}` });
    d.budget -= reason!.length + 40;
  }
}

/** A bulleted or numbered list of corpus items, sometimes with a nested list under one item. */
export function list(d: PaperDraft): void {
  const ordered = d.random.next() < 0.5;
  // No `$` (the truth marks inline formulas with it) and no backslashes.
  const pool = d.corpus.items.filter((i) => !/\S{27,}/.test(i) && i.length <= 160 && !/[$\\]/.test(i));
  const items = d.corpus.draw(d.random, pool, 3 + Math.floor(d.random.next() * 3));
  const env = ordered ? 'enumerate' : 'itemize';
  const nestAt = d.random.next() < 0.35 ? Math.floor(d.random.next() * items.length) : -1;
  const truth: { text: string; depth: number }[] = [];
  const tex: string[] = [`\\begin{${env}}`];
  for (const [i, item] of items.entries()) {
    // `{}` after \item: an item starting with `[` is not an optional label.
    tex.push(`\\item{} ${escapeLatex(item)}`);
    truth.push({ text: item, depth: 0 });
    if (i === nestAt) {
      const sub = d.corpus.draw(
        d.random,
        pool.filter((p) => !items.includes(p)),
        2,
      );
      tex.push(`\\begin{${env}}`, ...sub.map((s) => `\\item{} ${escapeLatex(s)}`), `\\end{${env}}`);
      for (const s of sub) truth.push({ text: s, depth: 1 });
    }
  }
  tex.push(`\\end{${env}}\n`);
  d.tex.push(tex.join('\n'));
  d.blocks.push({ kind: 'list', ordered, items: truth });
  d.budget -= truth.reduce((s, i) => s + i.text.length + 20, 0);
}

/** A short code block (verbatim), from the corpus's code without quotes T1's typewriter would curl. */
export function code(d: PaperDraft): boolean {
  const width = d.columns === 2 ? 40 : 64;
  const pool = d.corpus.code.filter((c) => {
    const lines = c.split('\n');
    return lines.length <= 10 && lines.every((l) => l.length <= width && /^[\x20-\x7e]*$/.test(l)) && !/['`]|\\end\{verbatim\}/.test(c) && c.trim() !== '';
  });
  if (pool.length === 0) return false;
  const text = d.random.pick(pool);
  d.tex.push(`\\begin{verbatim}\n${text}\n\\end{verbatim}\n`);
  d.blocks.push({ kind: 'code', text });
  d.budget -= text.length + 100;
  return true;
}
