/**
 * Seeded tables for the factory: figures by category and period, a spanning group header, grouped
 * rows under a label that spans them, or words from the corpus; and their HTML in several rulings.
 */
import type { Random } from '../../scans/random.ts';
import type { Corpus } from '../corpus/index.ts';
import { tableRowsHtml } from '../markdown.ts';
import type { TruthCell, TruthTable } from '../types.ts';

export type Ruling = 'grid' | 'booktabs' | 'header-rule' | 'unruled' | 'zebra';
export const RULINGS: readonly Ruling[] = ['grid', 'booktabs', 'header-rule', 'unruled', 'zebra'];

const PERIODS = [
  ['2021', '2022', '2023', '2024'],
  ['Q1', 'Q2', 'Q3', 'Q4'],
  ['Jan', 'Feb', 'Mar', 'Apr', 'May'],
  ['North', 'South', 'East', 'West'],
  ['Budget', 'Actual', 'Variance'],
  ['Min', 'Median', 'Max'],
] as const;

/** A figure as reports print them: thousands separators, decimals, percentages or currency. */
function figure(random: Random, kind: number): string {
  const v = random.uniform(0, 1);
  switch (kind) {
    case 0:
      return Math.round(v * 98_000 + 120).toLocaleString('en-US');
    case 1:
      return `${(v * 99).toFixed(1)}%`;
    case 2:
      return `$${(v * 9_000 + 10).toFixed(2)}`;
    default:
      return (v * 500).toFixed(2);
  }
}

/** Short labels: corpus headings that fit a table's stub column. */
function labels(random: Random, corpus: Corpus, n: number): string[] {
  const pool = corpus.headings.filter((h) => h.length <= 28);
  return corpus.draw(random, pool, n);
}

/**
 * A table of figures: a stub column of labels, period columns, maybe a group header spanning the
 * periods (two header rows) or row groups whose label spans their rows.
 */
export function figuresTable(random: Random, corpus: Corpus): TruthTable {
  const periods = [...random.pick(PERIODS)];
  const kind = Math.floor(random.next() * 4);
  const rowCount = 3 + Math.floor(random.next() * 7);
  const cells: TruthCell[] = [];
  const grouped = random.next() < 0.35;
  const rowGroups = !grouped && random.next() < 0.25;
  let row = 0;
  const stub = random.pick(['Item', 'Category', 'Area', 'Measure', 'Component']);
  if (grouped) {
    cells.push({ row: 0, col: 0, rowspan: 2, colspan: 1, text: stub, header: true });
    cells.push({
      row: 0,
      col: 1,
      rowspan: 1,
      colspan: periods.length,
      text: random.pick(['Results by period', 'Figures', 'Values', 'Estimates']),
      header: true,
    });
    periods.forEach((p, i) => cells.push({ row: 1, col: i + 1, rowspan: 1, colspan: 1, text: p, header: true }));
    row = 2;
  } else {
    cells.push({ row: 0, col: 0, rowspan: 1, colspan: 1, text: stub, header: true });
    periods.forEach((p, i) => cells.push({ row: 0, col: i + 1, rowspan: 1, colspan: 1, text: p, header: true }));
    row = 1;
  }
  const headerRows = row;
  const names = labels(random, corpus, rowCount);
  if (rowGroups) {
    // Two groups, each label spanning its rows in a column of its own before the stub.
    for (const c of cells) Object.assign(c, { col: c.col + 1 });
    cells.unshift({ row: 0, col: 0, rowspan: headerRows, colspan: 1, text: 'Group', header: true });
    const split = Math.max(1, Math.floor(names.length / 2));
    [names.slice(0, split), names.slice(split)].forEach((group, g) => {
      if (group.length === 0) return;
      cells.push({ row, col: 0, rowspan: group.length, colspan: 1, text: g === 0 ? 'Group A' : 'Group B', header: false });
      for (const name of group) {
        cells.push({ row, col: 1, rowspan: 1, colspan: 1, text: name, header: false });
        periods.forEach((_, i) => cells.push({ row, col: i + 2, rowspan: 1, colspan: 1, text: figure(random, kind), header: false }));
        row++;
      }
    });
    return { rows: row, cols: periods.length + 2, headerRows, cells };
  }
  for (const name of names) {
    cells.push({ row, col: 0, rowspan: 1, colspan: 1, text: name, header: false });
    periods.forEach((_, i) => cells.push({ row, col: i + 1, rowspan: 1, colspan: 1, text: figure(random, kind), header: false }));
    row++;
  }
  return { rows: row, cols: periods.length + 1, headerRows, cells };
}

/** A table of words: a term and a description (list items of the corpus), as manuals print options. */
export function wordsTable(random: Random, corpus: Corpus): TruthTable {
  const rows = 3 + Math.floor(random.next() * 5);
  const heads = random.pick([
    ['Option', 'Description'],
    ['Name', 'Purpose', 'Default'],
    ['Setting', 'Meaning'],
  ]);
  const cells: TruthCell[] = heads.map((text, col) => ({ row: 0, col, rowspan: 1, colspan: 1, text, header: true }));
  const terms = corpus.draw(
    random,
    corpus.headings.filter((h) => h.split(' ').length <= 3),
    rows,
  );
  const items = corpus.draw(random, corpus.items, rows);
  for (let r = 0; r < rows; r++) {
    cells.push({ row: r + 1, col: 0, rowspan: 1, colspan: 1, text: terms[r] ?? `Term ${r + 1}`, header: false });
    cells.push({ row: r + 1, col: 1, rowspan: 1, colspan: 1, text: items[r] ?? 'Not set', header: false });
    if (heads.length === 3)
      cells.push({ row: r + 1, col: 2, rowspan: 1, colspan: 1, text: random.pick(['true', 'false', 'none', '0', '100', 'auto']), header: false });
  }
  return { rows: rows + 1, cols: heads.length, headerRows: 1, cells };
}

const RULING_CSS: Record<Ruling, string> = {
  grid: 'td, th { border: 0.75pt solid #222; }',
  booktabs:
    'table { border-top: 1.2pt solid #000; border-bottom: 1.2pt solid #000; } thead tr:last-child th { border-bottom: 0.6pt solid #000; } th.group { border-bottom: 0.5pt solid #000; }',
  'header-rule': 'thead tr:last-child th { border-bottom: 0.9pt solid #000; }',
  unruled: '',
  zebra: 'tbody tr:nth-child(odd) td { background: #e8edf3; } thead th { background: #c9d6e6; }',
};

/** The table's HTML; `cls` scopes its ruling CSS so tables of one page can differ. */
export function tableHtml(table: TruthTable, ruling: Ruling, cls: string): { html: string; css: string } {
  const rows = tableRowsHtml(table, (c) => (c.header && c.colspan > 1 ? ' class="group"' : /^[$\d.,%-]+$/.test(c.text) ? ' class="num"' : ''));
  const head = rows.slice(0, table.headerRows).join('');
  const body = rows.slice(table.headerRows).join('');
  // Each rule scoped to this table, so two tables of one page can be ruled differently.
  const css = RULING_CSS[ruling]
    .split('}')
    .map((rule) => rule.trim())
    .filter(Boolean)
    .map((rule) => {
      const [selectors = '', body = ''] = rule.split('{');
      const scoped = selectors
        .split(',')
        .map((sel) => sel.trim())
        .map((sel) => (sel.startsWith('table') ? sel.replace(/^table/, `table.${cls}`) : `table.${cls} ${sel}`));
      return `${scoped.join(', ')} {${body}}`;
    })
    .join('\n');
  return { html: `<table class="${cls}"><thead>${head}</thead><tbody>${body}</tbody></table>`, css };
}
