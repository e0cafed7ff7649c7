/**
 * Running heads and feet of the factory's papers: LaTeX's plain page numbers, none, or fancyhdr
 * with fixed text (a short title, the authors, a venue) and page numbers in several forms, the
 * first page plain or bare. The preamble lines and the per-page truth come from one choice.
 */
import type { Random } from '../../scans/random.ts';
import type { PageFurniture } from '../types.ts';
import { escapeLatex } from './latex.ts';

interface NumberForm {
  readonly tex: string;
  text(page: number, pages: number): string;
}

const NUMBER_FORMS: readonly NumberForm[] = [
  { tex: '\\thepage', text: (n) => `${n}` },
  { tex: 'Page \\thepage', text: (n) => `Page ${n}` },
  { tex: '\\thepage\\ of \\pageref{LastPage}', text: (n, m) => `${n} of ${m}` },
  { tex: 'Page \\thepage\\ of \\pageref{LastPage}', text: (n, m) => `Page ${n} of ${m}` },
  { tex: '- \\thepage\\ -', text: (n) => `- ${n} -` },
];

const VENUES = ['Preprint', 'Technical report', 'Working paper', 'Draft for discussion', 'Under review', 'Internal note'];

export interface PaperFurniture {
  /** Preamble lines (packages and page styles). */
  readonly preamble: readonly string[];
  /** What follows the title block (`\thispagestyle{…}`), or nothing. */
  readonly firstPage: string;
  /** Whether the document class needs `twoside`. */
  readonly twoside: boolean;
  furniture(page: number, pages: number): PageFurniture;
}

export type FurnitureStyle = 'empty' | 'plain' | 'fancy' | 'twoside';

const none: PageFurniture = { header: [], footer: [] };

/**
 * The furniture of a paper titled `shortTitle` by `authors` (both plain text, escaped here).
 *
 * @example
 * paperFurniture(random, 'fancy', 'Notes on parsing', 'Okafor et al.').furniture(2, 5) // { header: ['Notes on parsing', 'Okafor et al.'], footer: ['Page 2 of 5'] }
 */
export function paperFurniture(random: Random, style: FurnitureStyle, shortTitle: string, authors: string): PaperFurniture {
  if (style === 'empty') return { preamble: ['\\pagestyle{empty}'], firstPage: '\\thispagestyle{empty}', twoside: false, furniture: () => none };
  if (style === 'plain') return { preamble: ['\\pagestyle{plain}'], firstPage: '', twoside: false, furniture: (n) => ({ header: [], footer: [`${n}`] }) };
  const rule = random.pick(['0pt', '0.4pt']);
  const first = random.pick(['same', 'plain', 'empty'] as const);
  const form = random.pick(NUMBER_FORMS);
  const base = ['\\usepackage{fancyhdr}', '\\usepackage{lastpage}', '\\pagestyle{fancy}', '\\fancyhf{}', `\\renewcommand{\\headrulewidth}{${rule}}`];
  const plainStyle = first === 'plain' ? [`\\fancypagestyle{plain}{\\fancyhf{}\\fancyfoot[C]{${form.tex}}\\renewcommand{\\headrulewidth}{0pt}}`] : [];
  const firstPage = first === 'same' ? '' : `\\thispagestyle{${first}}`;
  const firstFurniture = (n: number, m: number): PageFurniture | undefined =>
    n !== 1 || first === 'same' ? undefined : first === 'empty' ? none : { header: [], footer: [form.text(n, m)] };
  if (style === 'twoside') {
    // Odd pages: title left, number right; even pages: number left, authors right.
    return {
      preamble: [
        ...base,
        `\\fancyhead[LO]{${escapeLatex(shortTitle)}}`,
        `\\fancyhead[RE]{${escapeLatex(authors)}}`,
        `\\fancyhead[RO,LE]{${form.tex}}`,
        ...plainStyle,
      ],
      firstPage,
      twoside: true,
      furniture: (n, m) => firstFurniture(n, m) ?? { header: n % 2 === 1 ? [shortTitle, form.text(n, m)] : [form.text(n, m), authors], footer: [] },
    };
  }
  const venue = random.pick(VENUES);
  const heads = random.pick([
    [shortTitle, authors],
    [authors, shortTitle],
    [shortTitle, venue],
    [venue, shortTitle],
    [shortTitle, ''],
    ['', shortTitle],
  ]);
  const footLeft = heads.includes(venue) || random.next() < 0.6 ? '' : venue;
  const footSide = footLeft === '' ? random.pick(['C', 'R']) : 'R';
  const preamble = [...base];
  if (heads[0]) preamble.push(`\\fancyhead[L]{${escapeLatex(heads[0])}}`);
  if (heads[1]) preamble.push(`\\fancyhead[R]{${escapeLatex(heads[1])}}`);
  if (footLeft) preamble.push(`\\fancyfoot[L]{${escapeLatex(footLeft)}}`);
  preamble.push(`\\fancyfoot[${footSide}]{${form.tex}}`, ...plainStyle);
  return {
    preamble,
    firstPage,
    twoside: false,
    furniture: (n, m) => firstFurniture(n, m) ?? { header: heads.filter((h) => h !== ''), footer: [...(footLeft ? [footLeft] : []), form.text(n, m)] },
  };
}
