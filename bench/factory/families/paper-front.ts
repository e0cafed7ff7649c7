/**
 * The front matter of the factory's papers: title, authors, affiliation and date in a block of
 * their own (never furniture), the abstract under LaTeX's `Abstract` heading, keywords.
 */
import type { Random } from '../../scans/random.ts';
import type { PlanContext } from '../types.ts';
import { escapeLatex } from './latex.ts';
import { type PaperDraft, prose } from './paper-parts.ts';

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

/** Authors' names, printed `A, B and C`, and the short form a running head uses. */
export function authors(r: Random): { line: string; short: string } {
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
export function title(r: Random, context: Readonly<PlanContext>): string {
  const pool = context.corpus.headings.filter((h) => h.split(' ').length >= 3 && h.length <= 60 && !/[$\\]/.test(h) && !/^\d/.test(h));
  return `${r.pick(TITLE_STARTS)}${r.pick(pool)}`;
}

/** The running head's short title: the title's first words, at most 40 characters. */
export function shortTitle(full: string): string {
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
export function titleBlock(r: Random, d: PaperDraft, text: string, who: string): string {
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
export function abstract(r: Random, d: PaperDraft): string {
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
