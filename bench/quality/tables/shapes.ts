/**
 * Table shapes for the synthetic table set, drawn from a seeded generator so every run makes the
 * same documents: multi-level headers (a group header spanning sub-columns, a stub header
 * spanning the header rows), multi-line cells, group cells spanning body rows, section rows,
 * numeric columns of several formats, narrow and wide tables, and four rulings (booktabs, full
 * grid, a rule under the header only, none). From {@link TURNED_FROM} on, the column headers
 * under the group headers (and those of plain columns) are set sideways, as narrow columns set
 * them, read bottom to top or top to bottom. From {@link TEXT_FROM} on, tables of words: a short
 * term column and one or two columns of prose cells wrapped over several lines (left-aligned or
 * justified), the kind reports use for definitions.
 */

export type Ruling = 'booktabs' | 'grid' | 'header-rule' | 'none';

/** One cell as HTML writes it: it holds `rowspan` × `colspan` slots from its top-left one. */
export interface SpecCell {
  readonly text: string;
  readonly row: number;
  readonly col: number;
  readonly rowspan: number;
  readonly colspan: number;
  readonly header: boolean;
}

export interface TableSpec {
  readonly caption: string;
  readonly ruling: Ruling;
  readonly rows: number;
  readonly cols: number;
  /** Header rows at the top (the rest is body). */
  readonly headerRows: number;
  readonly cells: readonly SpecCell[];
  /** Table width as a share of the text width; `undefined`: as wide as its content. */
  readonly width: number | undefined;
  /** Type size, points. */
  readonly size: number;
  /** Widest a stub (first column) cell may be, in ems, so long labels wrap onto several lines. */
  readonly stubEms: number;
  /**
   * Column headers of one column (not the stub's, not a group's) set sideways: 270 reads bottom
   * to top (turned a quarter counter-clockwise), 90 top to bottom; 0 upright.
   */
  readonly turned: 0 | 90 | 270;
  /** Prose cells set justified (tables of words only). */
  readonly justify: boolean;
}

/** Tables from this index on set their column headers sideways (the ones before are as they were). */
export const TURNED_FROM = 40;

/** Tables from this index on are tables of words (prose cells); the ones before are as they were. */
export const TEXT_FROM = 48;

/** Mulberry32: a small seeded generator (deterministic across machines and Node versions). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STUBS = [
  'Agriculture',
  'Manufacturing of machinery and equipment',
  'Construction',
  'Retail trade',
  'Transport and storage',
  'Households with dependent children',
  'Public administration',
  'Education',
  'Health and social work activities',
  'Mining',
  'Energy supply',
  'Water and waste management',
  'Information services',
  'Financial intermediation',
  'Real estate',
  'Accommodation and food services',
  'Arts and recreation',
  'Other services',
  'Northern region',
  'Southern region',
  'Urban areas',
  'Rural areas',
  'Men aged 15 to 24 years',
  'Women aged 25 to 54 years',
  'Baseline model',
  'Model with lagged covariates',
  'Random forest',
  'Logistic regression',
  'Total',
];
const GROUPS = ['Exports', 'Imports', 'Employment', 'Output', 'Accuracy', 'Sample', 'Estimates', 'Change since 2010', 'Survey wave'];
const SUBS = ['2019', '2020', '2021', 'Mean', 'SD', 'Min', 'Max', 'Share (%)', 'Count', 'Precision', 'Recall', 'F1', 'Men', 'Women', 'Value', 'Rank'];
const SECTIONS = ['Panel A: goods', 'Panel B: services', 'Private sector', 'Public sector', 'Other countries'];
const CAPTIONS = [
  'Selected indicators by sector',
  'Results of the evaluation',
  'Trade flows, annual totals',
  'Survey estimates by group',
  'Summary statistics',
];

const TERMS = [
  'Visual analogue scale',
  'Rating scale',
  'Checklist',
  'Event log',
  'Pictorial scale',
  'Free text',
  'Structured interview',
  'Panel survey',
  'Focus group',
  'Ranking task',
  'Daily diary',
  'Proxy report',
];
const WORDS = (
  'the a of to and in for with on by from that each which are is be can as or at its their one more than all ' +
  'patients respondents answers items responses scale category marks place line points terms values report period ' +
  'study record score choice level state experience event option range form number group record survey question ' +
  'usually often only also directly later instead together measured recorded chosen described assigned given used ' +
  'asked collected reviewed compared counted divided placed written anchored between within across before after'
).split(' ');

/** A sentence of `n` words from the list, capitalised and closed with a full stop. */
function sentence(rand: () => number, n: number): string {
  const words = Array.from({ length: n }, () => pick(rand, WORDS));
  words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
  return `${words.join(' ')}.`;
}

/** A table of words: terms, then one or two columns of prose cells of one to three sentences. */
function textTableSpec(index: number, rand: () => number, ruling: Ruling): TableSpec {
  const cols = rand() < 0.5 ? 2 : 3;
  const bodyRows = between(rand, 3, 7);
  const heads = ['Type', 'Description', 'Examples'];
  const cells: SpecCell[] = heads.slice(0, cols).map((text, col) => ({ text, row: 0, col, rowspan: 1, colspan: 1, header: true }));
  const terms = [...TERMS].sort(() => rand() - 0.5);
  for (let b = 0; b < bodyRows; b++) {
    cells.push({ text: terms[b % terms.length]!, row: 1 + b, col: 0, rowspan: 1, colspan: 1, header: false });
    for (let c = 1; c < cols; c++) {
      const text = Array.from({ length: between(rand, 1, 3) }, () => sentence(rand, between(rand, 6, 16))).join(' ');
      cells.push({ text, row: 1 + b, col: c, rowspan: 1, colspan: 1, header: false });
    }
  }
  return {
    caption: `Table ${index + 1}. ${pick(rand, ['Response option types', 'Definitions used in this report', 'Instruments compared'])}`,
    ruling,
    rows: 1 + bodyRows,
    cols,
    headerRows: 1,
    cells,
    width: 1,
    size: between(rand, 8, 11),
    stubEms: between(rand, 6, 9),
    turned: 0,
    justify: rand() < 0.5,
  };
}

const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
const between = (rand: () => number, lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));

/** A numeric cell in one column's format. */
function figure(rand: () => number, format: number): string {
  const v = rand();
  switch (format) {
    case 0:
      return (v * 100).toFixed(1);
    case 1:
      return Math.round(v * 250_000).toLocaleString('en-US');
    case 2:
      return `${(v * 100).toFixed(0)}%`;
    case 3:
      return v < 0.3 ? `(${(v * 40).toFixed(2)})` : (v * 40 - 5).toFixed(2);
    default:
      return v < 0.1 ? '–' : (v * 9).toFixed(3);
  }
}

/**
 * The `index`-th table of the set: its shape depends on the seed only.
 *
 * @example
 * tableSpec(7).cells.filter((c) => c.colspan > 1) // the spanning group headers, if any
 */
export function tableSpec(index: number): TableSpec {
  const rand = seeded(0x7ab1e + index * 7919);
  const ruling: Ruling = (['booktabs', 'grid', 'header-rule', 'none'] as const)[index % 4]!;
  if (index >= TEXT_FROM) return textTableSpec(index, rand, ruling);
  const groups = rand() < 0.55 ? between(rand, 1, 3) : 0;
  const perGroup = groups > 0 ? between(rand, 2, 3) : 0;
  const plain = groups > 0 ? between(rand, 0, 2) : between(rand, 2, 7);
  const cols = 1 + plain + groups * perGroup;
  const headerRows = groups > 0 ? 2 : 1;
  const bodyRows = between(rand, 3, 16);
  const cells: SpecCell[] = [];
  const used = new Set<string>();
  const add = (text: string, row: number, col: number, rowspan = 1, colspan = 1, header = false): void => {
    cells.push({ text, row, col, rowspan, colspan, header });
    for (let r = row; r < row + rowspan; r++) for (let c = col; c < col + colspan; c++) used.add(`${r},${c}`);
  };
  // Header: the stub header spans the header rows; plain columns' headers too; groups span their sub-columns.
  add(pick(rand, ['Sector', 'Group', 'Method', 'Region', 'Characteristic']), 0, 0, headerRows, 1, true);
  let col = 1;
  const subs = [...SUBS].sort(() => rand() - 0.5);
  for (let p = 0; p < plain; p++)
    add(pick(rand, ['Total', 'Number of firms', 'Average wage (EUR)', 'Growth rate', 'Notes', 'N']), 0, col++, headerRows, 1, true);
  const groupNames = [...GROUPS].sort(() => rand() - 0.5);
  for (let g = 0; g < groups; g++) {
    add(groupNames[g]!, 0, col, 1, perGroup, true);
    for (let s = 0; s < perGroup; s++) add(subs[(g * perGroup + s) % subs.length]!, 1, col + s, 1, 1, true);
    col += perGroup;
  }
  const formats = Array.from({ length: cols }, () => between(rand, 0, 4));
  const stubs = [...STUBS].sort(() => rand() - 0.5);
  // Section rows (one label across the row) only where the ruling can show them apart.
  const sectionAt = bodyRows >= 6 && rand() < 0.35 ? between(rand, 2, bodyRows - 2) : -1;
  // A group cell spanning body rows needs rules to be read as one: grid tables only.
  const spanRows = ruling === 'grid' && rand() < 0.5 && cols >= 4;
  let stub = 0;
  for (let b = 0; b < bodyRows; b++) {
    const row = headerRows + b;
    // A section label sits in the stub column alone, the rest of its row empty (as the ICDAR
    // 2013 truth records such rows: one cell, no span).
    if (b === sectionAt) {
      add(pick(rand, SECTIONS), row, 0);
      for (let c = 1; c < cols; c++) used.add(`${row},${c}`);
      continue;
    }
    for (let c = 0; c < cols; c++) {
      if (used.has(`${row},${c}`)) continue;
      if (c === 0) {
        add(stubs[stub++ % stubs.length]!, row, 0);
      } else if (spanRows && c === 1 && b % 3 === 0 && b + 1 < bodyRows && b + 1 !== sectionAt && b !== sectionAt) {
        add(pick(rand, ['Yes', 'No', 'High', 'Low']), row, 1, 2, 1);
      } else add(figure(rand, formats[c]!), row, c);
    }
  }
  return {
    caption: `Table ${index + 1}. ${pick(rand, CAPTIONS)}`,
    ruling,
    rows: headerRows + bodyRows,
    cols,
    headerRows,
    cells,
    width: rand() < 0.4 ? undefined : 0.6 + rand() * 0.4,
    size: between(rand, 8, 11),
    stubEms: between(rand, 8, 16),
    // From the index alone, so the tables before keep their shapes draw for draw.
    turned: index < TURNED_FROM ? 0 : index % 2 === 0 ? 270 : 90,
    justify: false,
  };
}
