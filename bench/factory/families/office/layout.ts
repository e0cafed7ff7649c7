/**
 * Seeded looks of Word-like documents: fonts from Debian's font packages, sizes, leading, margins,
 * paper, heading colour, table rulings, and the running heads and feet each variant prints.
 */
import type { Random } from '../../../scans/random.ts';
import { address, int, phone } from './content.ts';
import type { OfficeLayout, RunningLine, RunningSet } from './model.ts';

const SERIF = ['Liberation Serif', 'DejaVu Serif', 'Noto Serif'];
const SANS = ['Liberation Sans', 'DejaVu Sans', 'Noto Sans', 'Liberation Sans Narrow', 'DejaVu Sans Condensed'];
const COLOURS = ['000000', '1F3864', '2E74B5', '7B2C2C', '24533A', '404040', '5B2C6F'];

/** The page, fonts and spacing; heads and feet are the variant's (see below). */
export function baseLayout(random: Random): Omit<OfficeLayout, 'header' | 'footer' | 'pageFormat'> {
  const serifBody = random.next() < 0.55;
  const bodyFont = random.pick(serifBody ? SERIF : SANS);
  const headingFont = random.next() < 0.5 ? bodyFont : random.pick(serifBody ? SANS : SERIF);
  const narrow = /Narrow|Condensed/.test(bodyFont);
  return {
    paper: random.next() < 0.6 ? 'A4' : 'Letter',
    margin: { top: int(random, 20, 32), bottom: int(random, 20, 30), left: int(random, 18, 32), right: int(random, 18, 30) },
    bodyFont,
    headingFont,
    sizePt: random.pick(narrow ? [11, 12] : [10, 10.5, 11, 11, 12]),
    leading: random.pick([1, 1.08, 1.15, 1.15, 1.3, 1.5]),
    afterPt: random.pick([4, 6, 6, 8, 10]),
    justify: random.next() < 0.4,
    headingColor: random.pick(COLOURS),
    ruling: random.pick(['grid', 'grid', 'rules', 'header-rule', 'none'] as const),
  };
}

const align = (random: Random): RunningLine['align'] => random.pick(['left', 'center', 'right'] as const);

/** A page-number line: `Page 3 of 7`, `Page 3`, `3`, `3 of 7`, `Page 3/7`, `p. 3` (roman numbers without the count). */
export function pageLine(random: Random, roman: boolean, where: RunningLine['align'] = align(random)): RunningLine {
  // Spaces around a lone number between dashes or slashes ("- 3 -", "3 / 7") are lost by pdftotext
  // (narrow gaps), so the truth could not be found on the page: those styles are left out.
  const text = roman
    ? random.pick(['{PAGE}', 'Page {PAGE}', 'p. {PAGE}'])
    : random.pick(['Page {PAGE} of {PAGES}', 'Page {PAGE} of {PAGES}', 'Page {PAGE}', '{PAGE}', '{PAGE} of {PAGES}', 'Page {PAGE}/{PAGES}', 'p. {PAGE}']);
  return { text, align: where };
}

export interface Furniture {
  readonly header: RunningSet;
  readonly footer: RunningSet;
  readonly pageFormat: OfficeLayout['pageFormat'];
}

/** With probability `p`, rule off the `which` line of `lines` (under a head, over a foot). */
function ruleOff(random: Random, lines: RunningLine[], which: 'first' | 'last', p: number): void {
  if (lines.length === 0 || random.next() >= p) return;
  const i = which === 'first' ? 0 : lines.length - 1;
  lines[i] = { ...lines[i]!, rule: true };
}

/** Reports: a running head of the title or the company (none on the title page), page numbers at the foot. */
export function reportFurniture(random: Random, title: string, firm: string): Furniture {
  const roman = random.next() < 0.15;
  // Never the title alone: the title is body (page 1's heading), a running head is furniture.
  const head = random.pick([firm, `${firm} | ${title}`, `${title} - Ref. ${random.pick(['RP', 'TR', 'DOC'])}-${int(random, 100, 9999)}`]);
  const style = random.pick(['head-and-foot', 'head-and-foot', 'foot-only', 'head-only']);
  const pageInHead = style === 'head-only';
  const headLines: RunningLine[] = [{ text: head.length > 70 ? firm : head, align: align(random), bold: random.next() < 0.3 }];
  if (pageInHead) headLines.push(pageLine(random, roman, 'right'));
  const footLines: RunningLine[] = style === 'head-only' ? [] : [pageLine(random, roman)];
  if (style !== 'head-only' && random.next() < 0.35)
    footLines.unshift({ text: random.pick([`${firm} - Confidential`, 'For internal use only', `Copyright ${firm}`]), align: 'left' });
  const titlePage = random.next() < 0.7;
  ruleOff(random, headLines, 'last', 0.45);
  ruleOff(random, footLines, 'first', 0.3);
  return {
    header: style === 'foot-only' ? { odd: [] } : { ...(titlePage ? { first: [] } : {}), odd: headLines },
    footer: { ...(titlePage && random.next() < 0.5 ? { first: [] } : {}), odd: footLines },
    pageFormat: roman ? 'lowerRoman' : 'decimal',
  };
}

/** Letters: the letterhead on page 1 only; later pages a short head with the page number. */
export function letterFurniture(random: Random, firm: string): Furniture {
  const [street, city] = address(random);
  const head: RunningLine[] = [
    { text: firm, align: random.pick(['left', 'center'] as const), bold: true, sizePt: random.pick([15, 16, 18, 20]) },
    { text: random.next() < 0.5 ? `${street}, ${city}` : `${street} | ${city}`, align: 'left' },
    { text: `Tel. ${phone(random)}`, align: 'left' },
  ];
  const a = head[0]!.align;
  const letterhead = head.map((l) => ({ ...l, align: a }));
  ruleOff(random, letterhead, 'last', 0.4);
  const later: RunningLine[] = [{ text: firm, align: 'left' }, pageLine(random, false, 'right')];
  const registered = `Registered office: ${street}, ${city}. Company no. ${int(random, 1_000_000, 9_999_999)}`;
  const foot = random.next() < 0.5 ? [{ text: registered, align: 'center' as const, sizePt: 8 }] : [];
  return {
    header: { first: letterhead, odd: later },
    footer: random.next() < 0.5 ? { first: foot, odd: [] } : { odd: foot },
    pageFormat: 'decimal',
  };
}

/** Memos: a classification line at the head of every page, page numbers at the foot. */
export function memoFurniture(random: Random, firm: string): Furniture {
  const mark = random.pick(['CONFIDENTIAL', 'Company confidential', 'Restricted', `${firm} - internal`, 'Not for distribution']);
  return {
    header: { odd: [{ text: mark, align: align(random), bold: random.next() < 0.5 }] },
    footer: { odd: [pageLine(random, false)] },
    pageFormat: 'decimal',
  };
}

/** Manuals: a title page without furniture, then book-style heads and page numbers on the outer edges. */
export function manualFurniture(random: Random, title: string, firm: string): Furniture {
  const roman = random.next() < 0.25;
  const numbers = random.next() < 0.6;
  const rule = random.next() < 0.5;
  return {
    header: { first: [], odd: [{ text: `${title} (Edition ${int(random, 2, 9)})`, align: 'right', rule }], even: [{ text: firm, align: 'left', rule }] },
    footer: numbers
      ? { first: [], odd: [pageLine(random, roman, 'right')], even: [pageLine(random, roman, 'left')] }
      : { first: [], odd: [pageLine(random, roman, 'center')] },
    pageFormat: roman ? 'lowerRoman' : 'decimal',
  };
}
