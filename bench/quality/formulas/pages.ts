/**
 * The pages of `--set formulas`, chosen deterministically: formulas from the formula model's
 * held-out lists (`training/formula/data/heldout-*.tsv`, never trained on), set in paper-like
 * pages (one and two columns, numbered display equations, inline formulas in prose), and pages
 * of inline formulas with scripts and text-style big operators built from parts
 * (`inline-pages.ts`). The LaTeX that pdflatex typesets is the ground truth.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { renderMathml } from '../../olmocr/math.ts';
import { INLINE_PROSE, inlineScriptFormulas } from './inline-pages.ts';

const DATA = fileURLToPath(new URL('../../../training/formula/data/', import.meta.url));

export interface PageFormula {
  readonly latex: string;
  /** The held-out list's kind (`bigop`, `relation`, …; `real` for the hand-written list). */
  readonly kind: string;
  readonly display: boolean;
}

/**
 * Font families the pages are set in: Computer Modern (TeX's math fonts), and packages whose math
 * letters are the text italic (Palatino by mathpazo, Times by mathptmx), as many papers are.
 */
export const FONT_PACKAGES: Readonly<Record<string, string>> = { cm: '', palatino: 'mathpazo', times: 'mathptmx' };

/** Symbols a font package does not have (pdflatex stops on them): left out of its pages. */
const MISSING: Readonly<Record<string, RegExp>> = { times: /\\(?:jmath|amalg|coprod)(?![a-zA-Z])/ };

export interface FormulaPage {
  readonly name: string;
  readonly columns: 1 | 2;
  /** A key of FONT_PACKAGES. */
  readonly font: string;
  readonly formulas: readonly PageFormula[];
}

/** Sentences of prose between formulas: paper-like, no mathematics of their own. */
const PROSE = [
  'We now state the relation used throughout the remainder of this section.',
  'The following expression holds for every admissible choice of the parameters considered above.',
  'Combining the previous estimates with the definition given earlier, one obtains the identity below.',
  'This quantity plays a central role in the analysis of the proposed method and its variants.',
  'In the experiments reported later, the same notation is kept for clarity and comparison.',
  'A short computation, which we omit here, then leads directly to the next statement.',
  'The bound is tight in the sense that equality is attained for a suitable configuration.',
  'Note that the construction does not depend on the particular ordering of the samples.',
];

/** Environments a page cannot hold inline; pdflatex needs amsmath for them. */
const MULTILINE = /\\begin\{/;
/** KaTeX-only macros and non-ASCII input (pdflatex without inputenc setup): left out. */
const UNSUPPORTED = /\\degree|[^\x20-\x7e]/;

async function readList(file: string, fallbackKind: string): Promise<{ latex: string; kind: string }[]> {
  const text = await readFile(`${DATA}${file}`, 'utf8');
  return text
    .split('\n')
    .slice(1)
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const [latex = '', kind = fallbackKind] = l.split('\t');
      return { latex: latex.trim(), kind };
    })
    .filter((f) => f.latex !== '' && !UNSUPPORTED.test(f.latex) && renderMathml(f.latex) !== undefined);
}

/**
 * Every `stride`-th formula of the synthetic list (kinds interleaved as the list has them) and all
 * of the real one, dealt over `pages` pages; every third page has two columns. Short formulas
 * without environments alternate between inline and display; the rest are display equations.
 *
 * @example
 * (await formulaPages()).length // 26: 14 in Computer Modern (2 of inline scripts), 6 each in Palatino and Times
 */
export async function formulaPages(pages = 12, perPage = 10, inlinePages = 2, perInlinePage = 24): Promise<FormulaPage[]> {
  const real = await readList('heldout-real.tsv', 'real');
  const synthetic = await readList('heldout-synthetic.tsv', 'synthetic');
  const want = pages * perPage - real.length;
  const stride = Math.max(1, Math.floor(synthetic.length / want));
  const chosen = [...synthetic.filter((_, i) => i % stride === 0).slice(0, want), ...real];
  const out: FormulaPage[] = [];
  let inline = false;
  for (let p = 0; p < pages; p++) {
    const formulas = chosen.slice(p * perPage, (p + 1) * perPage).map((f): PageFormula => {
      const short = !MULTILINE.test(f.latex) && f.latex.length <= 40;
      inline = short ? !inline : inline;
      return { ...f, display: !(short && inline) };
    });
    if (formulas.length > 0) out.push({ name: `formulas-${String(p + 1).padStart(2, '0')}`, columns: p % 3 === 2 ? 2 : 1, font: 'cm', formulas });
  }
  // Pages of inline formulas with scripts and big operators beside their limits (`inline-pages.ts`),
  // one of them in two columns, so that each family has enough inline formulas to measure.
  const scripts = inlineScriptFormulas(inlinePages * perInlinePage);
  for (let p = 0; p < inlinePages; p++)
    out.push({
      name: `formulas-inline-${String(p + 1).padStart(2, '0')}`,
      columns: p % 2 === 1 ? 2 : 1,
      font: 'cm',
      formulas: scripts.slice(p * perInlinePage, (p + 1) * perInlinePage),
    });
  // The same formulas again in the other font families, a third of the pages each (one- and
  // two-column pages among them), so that each family is measured on the same kinds.
  const others = Object.keys(FONT_PACKAGES).filter((f) => f !== 'cm');
  const general = out.filter((q) => !q.name.startsWith('formulas-inline-'));
  const share = Math.ceil(general.length / 3);
  for (const [k, font] of others.entries())
    for (const page of [...general.slice(k * share, (k + 1) * share), ...out.filter((q) => q.name.startsWith('formulas-inline-') && q.font === 'cm')]) {
      const formulas = page.formulas.filter((f) => !MISSING[font]?.test(f.latex));
      out.push({ ...page, name: `${page.name}-${font}`, font, formulas });
    }
  return out;
}

/** The LaTeX source of a page: prose sentences, inline formulas inside them, numbered displays. */
export function pageSource(page: FormulaPage): string {
  const body: string[] = [];
  let sentence = page.name.length;
  let paragraph: string[] = [];
  const flush = (): void => {
    if (paragraph.length > 0) body.push(`${paragraph.join(' ')}\n`);
    paragraph = [];
  };
  for (let i = 0; i < page.formulas.length; i++) {
    const f = page.formulas[i]!;
    const next = page.formulas[i + 1];
    if (f.kind.startsWith('inline-') && next?.kind.startsWith('inline-') === true) {
      // Two inline formulas of the script pages to a sentence, three sentences to a paragraph.
      const template = INLINE_PROSE[sentence++ % INLINE_PROSE.length]!;
      paragraph.push(template.replace('{0}', `$${f.latex}$`).replace('{1}', `$${next.latex}$`));
      if (paragraph.length === 3) flush();
      i++;
      continue;
    }
    const prose = PROSE[sentence++ % PROSE.length]!;
    if (f.display) {
      paragraph.push(prose);
      flush();
      body.push(`\\begin{equation}\n${f.latex}\n\\end{equation}\n`);
    } else {
      paragraph.push(`${prose.replace(/\.$/, '')}, where $${f.latex}$ is given.`);
    }
  }
  flush();
  return [
    `\\documentclass[10pt${page.columns === 2 ? ',twocolumn' : ''}]{article}`,
    '\\usepackage{amsmath,amssymb}',
    ...(FONT_PACKAGES[page.font] ? [`\\usepackage{${FONT_PACKAGES[page.font]}}`] : []),
    '\\usepackage[margin=2.2cm]{geometry}',
    '\\pagestyle{empty}',
    '\\begin{document}',
    `\\section*{Formulas, page ${page.name.slice(-2)}}`,
    ...body,
    '\\end{document}',
    '',
  ].join('\n');
}
