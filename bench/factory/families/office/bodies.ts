/**
 * The bodies of Word-like documents, in reading order: reports and manuals (sections, nested
 * lists, tables with captions), letters (address block, salutation, signature) and memos (the
 * To/From/Date/Subject block). Prose, headings and list items are the corpus's.
 */
import type { Random } from '../../../scans/random.ts';
import type { Corpus } from '../../corpus/index.ts';
import type { TruthBlock } from '../../types.ts';
import { address, company, corpusTable, date, figureTable, int, paragraphs, person, role } from './content.ts';
import type { OfficeBlock } from './model.ts';

/** Items of a list, nested at most `maxDepth`, each depth at most one deeper than the last. */
export function listItems(random: Random, corpus: Corpus, n: number, maxDepth: number): { text: string; depth: number }[] {
  let depth = 0;
  return corpus.draw(random, corpus.items, n).map((text, i) => {
    if (i > 0) depth = Math.max(0, Math.min(maxDepth, depth + random.pick([-1, 0, 0, 1])));
    if (i === 0) depth = 0;
    return { text, depth };
  });
}

export interface SectionOptions {
  readonly sections: number;
  /** Paragraphs per section, at most. */
  readonly prose: number;
  readonly tables: boolean;
  /** The numbered lists of procedures (manuals) or a mix (reports). */
  readonly ordered: number;
}

/** Sections with headings at level 2 (subsections 3), prose, lists and tables with numbered captions. */
export function sections(random: Random, corpus: Corpus, used: Set<string>, o: SectionOptions): TruthBlock[] {
  const out: TruthBlock[] = [];
  const heads = corpus.draw(random, corpus.headings, o.sections * 3);
  let tables = 0;
  for (let s = 0; s < o.sections; s++) {
    out.push({ kind: 'heading', level: 2, text: heads[s]! });
    for (const text of paragraphs(random, corpus, int(random, 1, o.prose), used)) out.push({ kind: 'paragraph', text });
    const roll = random.next();
    if (roll < 0.45) {
      out.push({ kind: 'list', ordered: random.next() < o.ordered, items: listItems(random, corpus, int(random, 3, 6), random.next() < 0.5 ? 2 : 0) });
      for (const text of paragraphs(random, corpus, 1, used)) out.push({ kind: 'paragraph', text });
    } else if (roll < 0.75 && o.tables) {
      const table =
        random.next() < 0.25
          ? (corpusTable(random, corpus, 4) ?? figureTable(random, corpus, { spans: false, maxCols: 5 }))
          : figureTable(random, corpus, { spans: random.next() < 0.6, maxCols: 6 });
      tables++;
      const caption = random.next() < 0.7 ? `Table ${tables}. ${heads[o.sections + s]}` : undefined;
      out.push(caption ? { kind: 'table', table, caption } : { kind: 'table', table });
    }
    if (random.next() < 0.4) {
      out.push({ kind: 'heading', level: 3, text: heads[o.sections * 2 + s]! });
      for (const text of paragraphs(random, corpus, int(random, 1, 2), used)) out.push({ kind: 'paragraph', text });
    }
  }
  return out;
}

const TITLE_TAILS = [' Report', ': Status Report', ' Review', ' Guidelines', ': An Overview', ' Handbook', ' Notes'];

export const reportTitle = (random: Random, corpus: Corpus): string =>
  `${random.pick(corpus.headings.filter((h) => h.length <= 30))}${random.pick(TITLE_TAILS)}`;

/** A report: title, by-line, a table of contents where `toc`, sections. */
export function reportBody(
  random: Random,
  corpus: Corpus,
  title: string,
  size: { sections: number; prose: number; toc: boolean; tables: boolean },
): OfficeBlock[] {
  const used = new Set<string>();
  const byline = `Prepared by ${person(random)}, ${role(random)}, ${date(random, random.pick(['uk', 'us'] as const))}`;
  const body = sections(random, corpus, used, { ...size, ordered: 0.5 });
  const contents: OfficeBlock[] = size.toc
    ? [
        { kind: 'heading', level: 2, text: random.pick(['Contents', 'Table of Contents', 'In this report']) },
        { kind: 'toc', entries: body.flatMap((b) => (b.kind === 'heading' ? [{ text: b.text, depth: b.level - 2 }] : [])) },
      ]
    : [];
  return [{ kind: 'heading', level: 1, text: title }, { kind: 'paragraph', text: byline }, ...contents, ...body];
}

/** A manual: title page matter, then numbered procedures and reference tables. */
export function manualBody(random: Random, corpus: Corpus, title: string, size: { sections: number; prose: number }): OfficeBlock[] {
  const used = new Set<string>();
  const version = `Version ${int(random, 1, 9)}.${int(random, 0, 12)} - ${date(random, 'iso')}`;
  return [
    { kind: 'heading', level: 1, text: title },
    { kind: 'paragraph', text: version },
    ...paragraphs(random, corpus, 1, used).map((text): TruthBlock => ({ kind: 'paragraph', text })),
    ...sections(random, corpus, used, { ...size, tables: true, ordered: 0.8 }),
  ];
}

/** A business letter: date, inside address, subject, salutation, prose, close and signature. */
export function letterBody(random: Random, corpus: Corpus, paragraphsCount: number, firm: string): OfficeBlock[] {
  const used = new Set<string>();
  const to = person(random);
  const [street, city] = address(random);
  const surname = to.split(' ')[1]!;
  const salutation = `Dear ${random.pick(['Ms', 'Mr', 'Dr'])} ${surname},`;
  const subject = `Re: ${random.pick(corpus.headings.filter((h) => h.length <= 40))}`;
  const out: OfficeBlock[] = [
    { kind: 'paragraph', text: date(random, random.pick(['uk', 'us'] as const)) },
    { kind: 'line', text: to },
    { kind: 'line', text: role(random) },
    // The addressee's company, never the letterhead's (that one is furniture).
    { kind: 'line', text: company(random).replace(firm, `${firm.split(' ')[0]} Group`) },
    { kind: 'line', text: street },
    { kind: 'paragraph', text: city },
    { kind: 'line', text: subject, bold: true },
    { kind: 'paragraph', text: '' },
    { kind: 'paragraph', text: salutation },
  ];
  const prose = paragraphs(random, corpus, paragraphsCount, used);
  prose.forEach((text, i) => {
    out.push({ kind: 'paragraph', text });
    if (i === 1 && random.next() < 0.4) out.push({ kind: 'list', ordered: random.next() < 0.4, items: listItems(random, corpus, int(random, 3, 5), 0) });
  });
  out.push({ kind: 'paragraph', text: random.pick(['Yours sincerely,', 'Kind regards,', 'Best regards,', 'Sincerely,']) });
  // The firm's name is the letterhead's (furniture): the signature gives the role alone.
  out.push({ kind: 'line', text: person(random) }, { kind: 'line', text: role(random) });
  return out;
}

/** A memo: its heading, the label/value block, then prose with a list or a table. */
export function memoBody(random: Random, corpus: Corpus, paragraphsCount: number): OfficeBlock[] {
  const used = new Set<string>();
  const out: OfficeBlock[] = [
    { kind: 'heading', level: 1, text: random.pick(['Memorandum', 'MEMORANDUM', 'Memo', 'Internal Memo']) },
    { kind: 'field', label: 'To:', value: `${person(random)}, ${role(random)}` },
    { kind: 'field', label: 'From:', value: `${person(random)}, ${role(random)}` },
  ];
  if (random.next() < 0.4) out.push({ kind: 'field', label: 'Cc:', value: `${person(random)}; ${person(random)}` });
  out.push({ kind: 'field', label: 'Date:', value: date(random, random.pick(['uk', 'us', 'iso'] as const)) });
  out.push({ kind: 'field', label: 'Subject:', value: random.pick(corpus.headings) });
  out.push({ kind: 'paragraph', text: '' });
  const prose = paragraphs(random, corpus, paragraphsCount, used);
  prose.forEach((text, i) => {
    out.push({ kind: 'paragraph', text });
    if (i === 0) out.push({ kind: 'list', ordered: random.next() < 0.5, items: listItems(random, corpus, int(random, 3, 6), random.next() < 0.3 ? 1 : 0) });
    if (i === 2 && random.next() < 0.5) out.push({ kind: 'table', table: figureTable(random, corpus, { spans: random.next() < 0.4, maxCols: 5 }) });
  });
  return out;
}
