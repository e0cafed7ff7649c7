/**
 * The `papers` family: articles typeset by pdflatex as papers are, in one or two columns, with
 * running heads and feet, booktabs tables, theorems and proofs, display and inline formulas, in
 * Computer Modern, Times, Palatino, Helvetica, Charter or Bookman at 10–12 pt. The truth is what
 * LaTeX prints: section numbers in headings, `Theorem 2.` and `Proof.` leading their paragraphs,
 * `Table 1:` leading captions; words hyphenated at line ends are whole in the truth. Display
 * equations are unnumbered (their truth is their LaTeX alone) and there are no footnotes: where a
 * footnote's text lands depends on a page break the plan cannot know.
 */
import type { Random } from '../../scans/random.ts';
import type { Family, PlanContext, PlannedDocument, TruthBlock } from '../types.ts';
import { PAPER_FONTS } from './latex.ts';
import { abstract, authors, shortTitle, title, titleBlock } from './paper-front.ts';
import { type FurnitureStyle, paperFurniture } from './paper-furniture.ts';
import { code, display, heading, list, type PaperDraft, paragraph, type SectionNumbering, theorem, theoremPreamble } from './paper-parts.ts';
import { table } from './paper-table.ts';

export const PAPER_VARIANTS = ['article', 'twocolumn', 'running-heads', 'tables', 'theorems', 'math'] as const;
type PaperVariant = (typeof PAPER_VARIANTS)[number];

interface VariantShape {
  readonly columns: (r: Random) => 1 | 2;
  readonly furniture: readonly FurnitureStyle[];
  /** Chances, per block after a section's first paragraph, of each kind of part. */
  readonly rates: { readonly table: number; readonly display: number; readonly theorem: number; readonly list: number; readonly code: number };
  /** Share of paragraphs with inline formulas. */
  readonly inlineMath: number;
}

const one = (): 1 => 1;
const SHAPES: Readonly<Record<PaperVariant, VariantShape>> = {
  article: { columns: one, furniture: ['empty', 'plain'], rates: { table: 0.08, display: 0.08, theorem: 0, list: 0.15, code: 0.08 }, inlineMath: 0.1 },
  twocolumn: {
    columns: () => 2,
    furniture: ['plain', 'empty', 'fancy'],
    rates: { table: 0.12, display: 0.15, theorem: 0, list: 0.1, code: 0.05 },
    inlineMath: 0.2,
  },
  'running-heads': {
    columns: (r) => (r.next() < 0.3 ? 2 : 1),
    furniture: ['fancy', 'twoside'],
    rates: { table: 0.08, display: 0.1, theorem: 0, list: 0.12, code: 0.05 },
    inlineMath: 0.15,
  },
  tables: {
    columns: (r) => (r.next() < 0.35 ? 2 : 1),
    furniture: ['plain', 'fancy'],
    rates: { table: 0.45, display: 0.05, theorem: 0, list: 0.05, code: 0 },
    inlineMath: 0.1,
  },
  theorems: {
    columns: (r) => (r.next() < 0.3 ? 2 : 1),
    furniture: ['plain', 'fancy', 'empty'],
    rates: { table: 0, display: 0.2, theorem: 0.45, list: 0.05, code: 0 },
    inlineMath: 0.4,
  },
  math: {
    columns: (r) => (r.next() < 0.4 ? 2 : 1),
    furniture: ['plain', 'fancy', 'twoside'],
    rates: { table: 0.05, display: 0.45, theorem: 0.1, list: 0, code: 0 },
    inlineMath: 0.5,
  },
};

/** Characters of text a page holds, roughly, for the planned length (calibrated on typeset pages). */
function pageChars(size: number, columns: 1 | 2, margin: number): number {
  const base = columns === 2 ? 5200 : 3900;
  return base * (10 / size) ** 2 * ((21 - 2 * margin) / 16);
}

/** The body: sections of paragraphs and the variant's parts, until the planned length is reached. */
function body(r: Random, d: PaperDraft, shape: VariantShape): void {
  const headings = d.corpus.headings.filter((h) => h.length <= 40 && !/[$\\]/.test(h) && !/^\d/.test(h));
  const part = (): void => {
    const roll = r.next();
    let acc = 0;
    for (const [kind, rate] of Object.entries(shape.rates)) {
      acc += rate;
      if (roll >= acc) continue;
      if (kind === 'table') table(d);
      else if (kind === 'display') display(d);
      else if (kind === 'theorem') theorem(d);
      else if (kind === 'list') list(d);
      else if (kind === 'code' && code(d)) return;
      else continue;
      return;
    }
    paragraph(d, shape.inlineMath);
  };
  let sections = 0;
  while (sections < 2 || (d.budget > 0 && sections < 8)) {
    const name = sections === 0 && r.next() < 0.6 ? 'Introduction' : r.pick(headings);
    heading(d, name, 2);
    sections += 1;
    paragraph(d, shape.inlineMath);
    const parts = 1 + Math.floor(r.next() * 3);
    for (let i = 0; i < parts && d.budget > 0; i++) part();
    if (r.next() < 0.35 && d.budget > 0) {
      for (let s = 0; s < 1 + Math.floor(r.next() * 2); s++) {
        heading(d, r.pick(headings), 3);
        paragraph(d, shape.inlineMath);
        part();
      }
    }
  }
}

/** Section heading looks (titlesec) and the number forms `1.` and `I.`/`A.`. */
function headingPreamble(r: Random, numbering: SectionNumbering): string[] {
  const section = r.pick(['', '\\Large\\bfseries', '\\large\\bfseries', '\\Large\\sffamily\\bfseries', '\\large\\itshape']);
  const subsection = r.pick(['', '\\normalsize\\bfseries', '\\normalsize\\itshape', '\\normalsize\\sffamily\\bfseries']);
  const lines = ['\\usepackage{titlesec}'];
  if (section) lines.push(`\\titleformat*{\\section}{${section}}`);
  if (subsection) lines.push(`\\titleformat*{\\subsection}{${subsection}}`);
  if (numbering === 'dotted' || numbering === 'roman') lines.push('\\titlelabel{\\thetitle.\\quad}');
  if (numbering === 'roman') lines.push('\\renewcommand{\\thesection}{\\Roman{section}}', '\\renewcommand{\\thesubsection}{\\Alph{subsection}}');
  return lines;
}

/** Plan one paper. */
function plan(variant: string, context: Readonly<PlanContext>): PlannedDocument {
  const r = context.random;
  const shape = SHAPES[variant as PaperVariant];
  if (shape === undefined) throw new Error(`papers: unknown variant ${variant}`);
  const columns = shape.columns(r);
  const font = r.pick(PAPER_FONTS);
  const size = r.pick([10, 11, 12]);
  const margin = Math.round(r.uniform(1.8, 3.2) * 10) / 10;
  const paper = r.pick(['a4paper', 'letterpaper']);
  const numbering = r.pick(['none', 'plain', 'plain', 'dotted', 'roman'] as const);
  const d: PaperDraft = {
    random: r,
    corpus: context.corpus,
    font: font.name,
    columns,
    numbering,
    theoremsBySection: numbering !== 'none' && r.next() < 0.5,
    tex: [],
    blocks: [],
    section: 0,
    subsection: 0,
    theorem: 0,
    table: 0,
    budget: 0,
  };
  const pages = 1 + Math.floor(r.next() * 4.5);
  d.budget = pages * pageChars(size, columns, margin);
  const paperTitle = title(r, context);
  const who = authors(r);
  const furniture = paperFurniture(r, r.pick(shape.furniture), shortTitle(paperTitle), who.short);
  const head = titleBlock(r, d, paperTitle, who.line);
  const top = r.next() < 0.75 ? abstract(r, d) : '';
  body(r, d, shape);
  const options = [`${size}pt`, paper, ...(columns === 2 ? ['twocolumn'] : []), ...(furniture.twoside ? ['twoside'] : [])];
  const parskip = r.next() < 0.25 ? ['\\setlength{\\parindent}{0pt}', '\\setlength{\\parskip}{0.6em}'] : [];
  const tex = [
    `\\documentclass[${options.join(',')}]{article}`,
    '\\usepackage[T1]{fontenc}',
    ...font.preamble,
    '\\usepackage{amsmath,amssymb,amsthm}',
    '\\usepackage{booktabs,multirow,float,adjustbox}',
    `\\usepackage[margin=${margin}cm,headheight=15pt]{geometry}`,
    ...furniture.preamble,
    ...headingPreamble(r, numbering),
    ...theoremPreamble(d.theoremsBySection),
    ...parskip,
    `\\linespread{${r.pick(['1', '1', '1.05', '1.1'])}}`,
    // Columns are narrow and the corpus has long words: stretch lines rather than overfill them.
    '\\emergencystretch=2em',
    ...(columns === 2 ? ['\\sloppy', `\\setlength{\\columnsep}{${r.pick([10, 14, 18, 24])}pt}`] : []),
    '\\begin{document}',
    columns === 2 ? `\\twocolumn[{${head}\n\\vspace{1em}}]` : head,
    furniture.firstPage,
    top,
    ...d.tex,
    '\\end{document}',
    '',
  ].join('\n');
  const blocks: readonly TruthBlock[] = d.blocks;
  return {
    id: context.id,
    family: 'papers',
    variant,
    script: 'latin',
    source: { renderer: 'pdflatex', tex },
    blocks,
    title: paperTitle,
    furniture: furniture.furniture,
  };
}

/**
 * @example
 * const doc = await papersFamily.plan('theorems', { random: seededRandom('x'), corpus: await loadCorpus(), index: 0, id: 'papers-theorems-000' });
 */
export const papersFamily: Family = {
  name: 'papers',
  description:
    'pdflatex papers: one and two columns, fancyhdr running heads and feet, booktabs tables with spans, amsthm theorems, display and inline formulas, six font families at 10-12 pt',
  variants: PAPER_VARIANTS,
  plan,
};
