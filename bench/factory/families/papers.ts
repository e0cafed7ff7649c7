/**
 * The `papers` family: articles typeset by pdflatex as papers are, in one or two columns, with
 * running heads and feet, booktabs tables, theorems and proofs, display and inline formulas, in
 * Computer Modern, Times, Palatino, Helvetica, Charter or Bookman at 10–12 pt. The truth is what
 * LaTeX prints: section numbers in headings, `Theorem 2.` and `Proof.` leading their paragraphs,
 * `Table 1:` leading captions; words hyphenated at line ends are whole in the truth.
 */
import type { Random } from '../../scans/random.ts';
import type { Family, PlanContext, PlannedDocument, TruthBlock } from '../types.ts';
import { escapeLatex, PAPER_FONTS } from './latex.ts';
import { type FurnitureStyle, paperFurniture } from './paper-furniture.ts';
import { code, display, heading, list, type PaperDraft, paragraph, prose, table, theorem, theoremPreamble } from './paper-parts.ts';

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

const FIRST_NAMES = [
  'Amara',
  'Lukas',
  'Mei',
  'Tomás',
  'Priya',
  'Jonas',
  'Fatima',
  'Kenji',
  'Sofia',
  'Daniel',
  'Ngozi',
  'Elena',
  'Rafael',
  'Ingrid',
  'Omar',
  'Hannah',
  'Wei',
  'Chiara',
  'Arjun',
  'Zofia',
];
const LAST_NAMES = [
  'Okafor',
  'Brandt',
  'Lindqvist',
  'Moreau',
  'Tanaka',
  'Rossi',
  'Haddad',
  'Novak',
  'Fernandes',
  'Kowalski',
  'Schmidt',
  'Osei',
  'Varga',
  'Mendoza',
  'Nakamura',
  'Kaur',
  'Dubois',
  'Petrov',
  'Larsen',
  'Chen',
];
const DEPARTMENTS = [
  'Department of Computer Science',
  'School of Informatics',
  'Institute of Applied Mathematics',
  'Department of Statistics',
  'Faculty of Engineering',
];
const PLACES = [
  'University of Leeds',
  'University of Toronto',
  'Universidad de Chile',
  'Aarhus University',
  'University of Cape Town',
  'Kyoto University',
  'University of Porto',
  'McGill University',
];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const TITLE_STARTS = ['', '', 'On ', 'Notes on ', 'Towards ', 'A Study of ', 'Revisiting '];

/** Characters of text a page holds, roughly, for the planned length (calibrated on typeset pages). */
function pageChars(size: number, columns: 1 | 2, margin: number): number {
  const base = columns === 2 ? 5200 : 3900;
  return base * (10 / size) ** 2 * ((21 - 2 * margin) / 16);
}

/** Authors' names, printed `A, B and C`, and the short form a running head uses. */
function authors(r: Random): { line: string; short: string } {
  const n = 1 + Math.floor(r.next() * 4);
  const initials = r.next() < 0.4;
  const people: { first: string; last: string }[] = [];
  while (people.length < n) {
    const person = { first: r.pick(FIRST_NAMES), last: r.pick(LAST_NAMES) };
    if (!people.some((p) => p.last === person.last)) people.push(person);
  }
  const names = people.map((p) => (initials ? `${p.first[0]}. ${p.last}` : `${p.first} ${p.last}`));
  const line = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  const short = n === 1 ? people[0]!.last : n === 2 ? `${people[0]!.last} and ${people[1]!.last}` : `${people[0]!.last} et al.`;
  return { line, short };
}

/** A title from a corpus heading of three words or more, as papers name themselves. */
function title(r: Random, context: Readonly<PlanContext>): string {
  const pool = context.corpus.headings.filter((h) => h.split(' ').length >= 3 && h.length <= 60 && !/[$\\]/.test(h) && !/^\d/.test(h));
  return `${r.pick(TITLE_STARTS)}${r.pick(pool)}`;
}

/** The running head's short title: the title's first words, at most 40 characters. */
function shortTitle(full: string): string {
  if (full.length <= 40) return full;
  const words = full.split(' ');
  let out = words[0]!;
  for (const w of words.slice(1)) {
    if (out.length + w.length + 1 > 40) break;
    out += ` ${w}`;
  }
  return out;
}

/** The title block (title, authors, affiliation, date) as a centred or flush-left block; its truth is body, never furniture. */
function titleBlock(r: Random, d: PaperDraft, text: string, who: string): string {
  const size = r.pick(['\\LARGE', '\\Large', '\\huge']);
  const weight = r.pick(['\\bfseries', '\\bfseries', '']);
  const align = r.next() < 0.75 ? 'center' : 'flushleft';
  const lines = [`\\begin{${align}}`, `{${size}${weight} ${escapeLatex(text)}\\par}`, '\\vspace{1em}', `{\\large ${escapeLatex(who)}\\par}`];
  d.blocks.push({ kind: 'heading', level: 1, text }, { kind: 'paragraph', text: who });
  if (r.next() < 0.7) {
    const affiliation = `${r.pick(DEPARTMENTS)}, ${r.pick(PLACES)}`;
    lines.push(`{\\small ${escapeLatex(affiliation)}\\par}`);
    d.blocks.push({ kind: 'paragraph', text: affiliation });
  }
  if (r.next() < 0.5) {
    const day = 1 + Math.floor(r.next() * 28);
    const month = r.pick(MONTHS);
    const year = 2019 + Math.floor(r.next() * 8);
    const date = r.next() < 0.5 ? `${month} ${day}, ${year}` : `${day} ${month} ${year}`;
    lines.push('\\vspace{0.5em}', `{\\small ${date}\\par}`);
    d.blocks.push({ kind: 'paragraph', text: date });
  }
  lines.push(`\\end{${align}}`);
  return lines.join('\n');
}

/** The abstract (LaTeX prints its heading `Abstract`) and sometimes a line of keywords. */
function abstract(r: Random, d: PaperDraft): string {
  const text = d.corpus.draw(r, prose(d.corpus), 2).join(' ');
  d.blocks.push({ kind: 'heading', level: 2, text: 'Abstract' }, { kind: 'paragraph', text });
  let tex = `\\begin{abstract}\n${escapeLatex(text)}\n\\end{abstract}`;
  if (r.next() < 0.35) {
    const words = d.corpus
      .draw(
        r,
        d.corpus.headings.filter((h) => h.length <= 24 && !/[$\\,]/.test(h)),
        4,
      )
      .map((h) => h.toLowerCase());
    tex += `\n\n\\noindent\\textbf{Keywords:} ${escapeLatex(words.join(', '))}\n`;
    d.blocks.push({ kind: 'paragraph', text: `Keywords: ${words.join(', ')}` });
  }
  d.budget -= text.length + 200;
  return tex;
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
  const numbered = r.next() < 0.75;
  const d: PaperDraft = {
    random: r,
    corpus: context.corpus,
    font: font.name,
    columns,
    numbered,
    theoremsBySection: numbered && r.next() < 0.5,
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
    '\\usepackage{booktabs,multirow,float}',
    `\\usepackage[margin=${margin}cm,headheight=15pt]{geometry}`,
    ...furniture.preamble,
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
