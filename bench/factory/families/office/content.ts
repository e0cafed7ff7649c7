/**
 * Seeded particulars of office documents: people, companies, addresses, dates, and tables of
 * figures with spanning headers and row groups. Everything comes from the document's `random`, so a
 * seed rebuilds the same text; the prose itself comes from the corpus.
 */
import type { Random } from '../../../scans/random.ts';
import type { Corpus } from '../../corpus/index.ts';
import type { TruthCell, TruthTable } from '../../types.ts';

const GIVEN = [
  'Anna',
  'Ben',
  'Clara',
  'David',
  'Elena',
  'Farid',
  'Grace',
  'Hugo',
  'Ines',
  'Jonas',
  'Kateryna',
  'Liam',
  'Maya',
  'Nikhil',
  'Olga',
  'Pedro',
  'Rosa',
  'Samuel',
  'Tomas',
  'Yuki',
];
const FAMILY = [
  'Andersen',
  'Barker',
  'Castillo',
  'Dubois',
  'Eriksen',
  'Fischer',
  'Gallagher',
  'Hoffmann',
  'Iversen',
  'Jensen',
  'Kowalski',
  'Lindqvist',
  'Moreau',
  'Novak',
  'Okafor',
  'Petersen',
  'Quinn',
  'Rossi',
  'Santos',
  'Walsh',
];
const FIRM_A = [
  'Northwind',
  'Bluestone',
  'Harbor',
  'Meridian',
  'Silverline',
  'Oakridge',
  'Redwood',
  'Summit',
  'Crescent',
  'Ironbridge',
  'Lakeside',
  'Westgate',
];
const FIRM_B = ['Systems', 'Analytics', 'Logistics', 'Engineering', 'Software', 'Consulting', 'Instruments', 'Data Services', 'Networks', 'Holdings'];
const FIRM_C = ['Ltd', 'Inc.', 'GmbH', 'LLC', 'plc', 'B.V.', 'S.A.'];
const STREETS = [
  'High Street',
  'Station Road',
  'Mill Lane',
  'Park Avenue',
  'Harbour Way',
  'Church Street',
  'King Street',
  'Market Square',
  'River Road',
  'Elm Grove',
];
const CITIES = [
  ['Leeds', 'LS1 4AP'],
  ['Bristol', 'BS1 5TR'],
  ['Rotterdam', '3011 AD'],
  ['Hamburg', '20095'],
  ['Lyon', '69002'],
  ['Denver, CO', '80202'],
  ['Austin, TX', '78701'],
  ['Dublin', 'D02 X285'],
  ['Aarhus', '8000'],
  ['Porto', '4050-279'],
] as const;
const ROLES = [
  'Operations Manager',
  'Head of Engineering',
  'Project Lead',
  'Finance Director',
  'Technical Writer',
  'Account Manager',
  'Chief Executive',
  'Quality Assurance Lead',
];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export const int = (random: Random, lo: number, hi: number): number => lo + Math.floor(random.next() * (hi - lo + 1));

export const person = (random: Random): string => `${random.pick(GIVEN)} ${random.pick(FAMILY)}`;
export const role = (random: Random): string => random.pick(ROLES);
export const company = (random: Random): string => `${random.pick(FIRM_A)} ${random.pick(FIRM_B)} ${random.pick(FIRM_C)}`;

/** Street line and city line. */
export function address(random: Random): [string, string] {
  const [city, code] = random.pick(CITIES);
  return [`${int(random, 1, 240)} ${random.pick(STREETS)}`, /\d/.test(code[0]!) && !city.includes(',') ? `${code} ${city}` : `${city} ${code}`];
}

export const phone = (random: Random): string => `+${int(random, 31, 49)} ${int(random, 10, 99)} ${int(random, 100, 999)} ${int(random, 1000, 9999)}`;

/** A date in one of the two ways letters print them. */
export function date(random: Random, style: 'uk' | 'us' | 'iso'): string {
  const y = int(random, 2023, 2026);
  const m = int(random, 0, 11);
  const d = int(random, 1, 28);
  if (style === 'iso') return `${y}-${String(m + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  return style === 'uk' ? `${d} ${MONTHS[m]} ${y}` : `${MONTHS[m]} ${d}, ${y}`;
}

/** Whether every word of `text` is at most `max` characters (so it can wrap between words). */
const shortWords = (text: string, max: number): boolean => text.split(' ').every((w) => w.length <= max);

const cell = (row: number, col: number, text: string, header: boolean, rowspan = 1, colspan = 1): TruthCell => ({ row, col, rowspan, colspan, text, header });

/** A corpus table that fits a page: at most `maxCols` columns of short cells. */
export function corpusTable(random: Random, corpus: Corpus, maxCols: number): TruthTable | undefined {
  const fits = corpus.tables.filter(
    (t) => t[0]!.length >= 2 && t[0]!.length <= maxCols && t.length >= 3 && t.every((r) => r.every((c) => c.length > 0 && c.length <= 40 && shortWords(c, 16))),
  );
  if (fits.length === 0) return undefined;
  const rows = random.pick(fits).slice(0, 9);
  const cols = rows[0]!.length;
  const cells = rows.flatMap((r, i) => r.slice(0, cols).map((text, j) => cell(i, j, text, i === 0)));
  return { rows: rows.length, cols, headerRows: 1, cells };
}

const figure = (random: Random, kind: 'money' | 'count' | 'percent'): string => {
  if (kind === 'percent') return `${(random.next() * 40).toFixed(1)}%`;
  const n = kind === 'money' ? int(random, 120, 98_000) : int(random, 3, 4_800);
  return n.toLocaleString('en-US');
};

/**
 * A table of figures: row labels from the corpus's headings, a header row (or two, the upper one
 * spanning pairs of columns) and, sometimes, row groups whose label spans their rows.
 */
export function figureTable(random: Random, corpus: Corpus, options: { readonly spans: boolean; readonly maxCols: number }): TruthTable {
  const kind = random.pick(['money', 'count', 'percent'] as const);
  const cells: TruthCell[] = [];
  const grouped = options.spans && random.next() < 0.5;
  const lead = grouped ? 2 : 1;
  // Spans come as a two-tier header (periods over pairs of columns), as row groups, or both.
  const twoTier = options.spans && (!grouped || random.next() < 0.4);
  const pairs = twoTier ? int(random, 2, Math.max(2, Math.floor((options.maxCols - lead) / 2))) : 0;
  const dataCols = twoTier ? pairs * 2 : int(random, 2, Math.max(2, options.maxCols - lead));
  const cols = lead + dataCols;
  const years = int(random, 2019, 2024);
  const sub = random.pick([
    ['Plan', 'Actual'],
    ['H1', 'H2'],
    ['Budget', 'Spent'],
    ['Low', 'High'],
  ]);
  const periods = random.pick([
    ['Q1', 'Q2', 'Q3', 'Q4', 'Q5', 'Q6'],
    ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun'],
    Array.from({ length: 6 }, (_, i) => String(years + i)),
  ]);
  const headerRows = twoTier ? 2 : 1;
  const leadNames = grouped ? ['Group', random.pick(['Item', 'Component', 'Area', 'Task'])] : [random.pick(['Item', 'Component', 'Area', 'Task', 'Measure'])];
  leadNames.forEach((name, j) => cells.push(cell(0, j, name, true, headerRows)));
  if (twoTier) {
    for (let p = 0; p < pairs; p++) {
      cells.push(cell(0, lead + p * 2, periods[p]!, true, 1, 2));
      cells.push(cell(1, lead + p * 2, sub[0]!, true), cell(1, lead + p * 2 + 1, sub[1]!, true));
    }
  } else {
    for (let j = 0; j < dataCols; j++) cells.push(cell(0, lead + j, periods[j]!, true));
  }
  // Narrow columns break a long word anywhere, and the truth keeps it whole: short words only.
  const labels = corpus.draw(
    random,
    corpus.headings.filter((h) => h.length <= 28 && shortWords(h, 14)),
    grouped ? 6 : int(random, 3, 7),
  );
  let row = headerRows;
  const groups = grouped ? [labels.slice(0, int(random, 2, 3)), labels.slice(3)].filter((g) => g.length > 0) : [labels];
  const groupNames = corpus.draw(random, ['North', 'South', 'East', 'West', 'Core', 'Support', 'Field', 'Central'], groups.length);
  groups.forEach((group, g) => {
    if (grouped) cells.push(cell(row, 0, groupNames[g]!, true, group.length));
    for (const label of group) {
      cells.push(cell(row, lead - 1, label, false));
      for (let j = 0; j < dataCols; j++) cells.push(cell(row, lead + j, figure(random, kind), false));
      row++;
    }
  });
  return { rows: row, cols, headerRows, cells };
}

/** A few prose paragraphs of the corpus, none repeated within one document (`used`). */
export function paragraphs(random: Random, corpus: Corpus, n: number, used: Set<string>, maxLength = 700): string[] {
  const out: string[] = [];
  for (let tries = 0; out.length < n && tries < n * 20; tries++) {
    const p = random.pick(corpus.paragraphs);
    if (used.has(p) || p.length > maxLength) continue;
    used.add(p);
    out.push(p);
  }
  return out;
}
