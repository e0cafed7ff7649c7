/**
 * Booktabs tables of the factory's papers, written with their truth: header rows, `\\multicolumn`
 * groups over a `\\multirow` label, spanning row-group labels, and the caption LaTeX numbers.
 */
import type { Random } from '../../scans/random.ts';
import type { TruthCell } from '../types.ts';
import { escapeLatex } from './latex.ts';
import type { PaperDraft } from './paper-parts.ts';

const METRICS = ['Precision', 'Recall', 'F1', 'Accuracy', 'Latency', 'Memory', 'Throughput', 'Error', 'Score', 'Runs', 'Size', 'Time'];
const GROUPS = ['Validation', 'Test', 'Small', 'Large', 'English', 'German', 'Cold start', 'Warm start', 'Local', 'Remote'];
const ROW_GROUPS = ['Baselines', 'Our variants', 'Ablations', 'Reference systems'];
const CAPTION_STARTS = ['Results for', 'Comparison on', 'Measurements of', 'Summary of', 'Figures for'];

/** A number as a table prints it: `decimals` places, never negative (a text-mode minus would be a hyphen). */
const figure = (random: Random, decimals: number, scale: number): string => (random.next() * scale).toFixed(decimals);

/**
 * A booktabs table in a non-floating `table` (`[H]`, so it stays where the truth puts it) with
 * its caption (`Table 2: …`): a plain header, two header rows with `\multicolumn` groups over a
 * `\multirow` label, or body rows grouped under spanning labels.
 */
export function table(d: PaperDraft): void {
  const r = d.random;
  const shape = r.pick(['plain', 'grouped', 'sections'] as const);
  // A column holds a label and three figures; a page holds two groups of two.
  const groups = d.columns === 2 ? 1 : 2;
  const dataCols = shape === 'grouped' ? groups * 2 : d.columns === 2 ? 2 + Math.floor(r.next() * 2) : 3 + Math.floor(r.next() * 3);
  const cols = dataCols + 1;
  const labels = d.corpus.draw(
    r,
    d.corpus.packages.filter((p) => p.length <= 16),
    3 + Math.floor(r.next() * 4),
  );
  // Grouped tables repeat the same two measures under each group, as papers do.
  const measures = d.corpus.draw(r, METRICS, shape === 'grouped' ? 2 : dataCols);
  const metrics = shape === 'grouped' ? Array.from({ length: dataCols }, (_, i) => measures[i % 2]!) : measures;
  const decimals = Array.from({ length: dataCols }, () => r.pick([0, 1, 2, 3]));
  const scales = decimals.map((k) => (k === 0 ? 2000 : k === 3 ? 1 : 100));
  const cells: TruthCell[] = [];
  const cell = (row: number, col: number, text: string, header: boolean, rowspan = 1, colspan = 1): void => {
    cells.push({ row, col, rowspan, colspan, text, header });
  };
  const tex: string[] = [];
  const first = r.pick(['Method', 'System', 'Package', 'Configuration']);
  let row = 0;
  if (shape === 'grouped') {
    const names = d.corpus.draw(r, GROUPS, groups);
    cell(0, 0, first, true, 2);
    const spans = names.map((g, i) => {
      cell(0, 1 + i * 2, g, true, 1, 2);
      return `\\multicolumn{2}{c}{${g}}`;
    });
    tex.push(`\\multirow{2}{*}{${first}} & ${spans.join(' & ')} \\\\`);
    tex.push(names.map((_, i) => `\\cmidrule(lr){${2 + i * 2}-${3 + i * 2}}`).join(''));
    metrics.forEach((m, i) => cell(1, 1 + i, m, true));
    tex.push(` & ${metrics.join(' & ')} \\\\`);
    row = 2;
  } else {
    cell(0, 0, first, true);
    metrics.forEach((m, i) => cell(0, 1 + i, m, true));
    tex.push(`${first} & ${metrics.join(' & ')} \\\\`);
    row = 1;
  }
  const headerRows = row;
  tex.push('\\midrule');
  const split = shape === 'sections' ? Math.max(1, Math.floor(labels.length / 2)) : -1;
  const sectionNames = d.corpus.draw(r, ROW_GROUPS, 2);
  for (const [i, label] of labels.entries()) {
    if (shape === 'sections' && (i === 0 || i === split)) {
      const name = sectionNames[i === 0 ? 0 : 1]!;
      if (i === split) tex.push('\\midrule');
      cell(row, 0, name, true, 1, cols);
      tex.push(`\\multicolumn{${cols}}{l}{\\textit{${name}}} \\\\`);
      row += 1;
    }
    const values = decimals.map((k, c) => figure(r, k, scales[c]!));
    cell(row, 0, label, false);
    values.forEach((v, c) => cell(row, 1 + c, v, false));
    tex.push(`${escapeLatex(label)} & ${values.join(' & ')} \\\\`);
    row += 1;
  }
  d.table += 1;
  const heading = r.pick(d.corpus.headings.filter((h) => h.length <= 40 && !/[$\\]/.test(h)));
  const captionText = `${r.pick(CAPTION_STARTS)} ${heading.toLowerCase()}.`;
  const caption = `\\caption{${escapeLatex(captionText)}}`;
  const above = r.next() < 0.6;
  d.tex.push(
    [
      '\\begin{table}[H]',
      '\\centering',
      d.columns === 2 ? '\\small' : r.pick(['', '\\small']),
      ...(above ? [caption] : []),
      // Scaled down only where wider than its column, so that it never runs into the next one.
      '\\begin{adjustbox}{max width=\\linewidth}',
      `\\begin{tabular}{l${'r'.repeat(dataCols)}}`,
      '\\toprule',
      ...tex,
      '\\bottomrule',
      '\\end{tabular}',
      '\\end{adjustbox}',
      ...(above ? [] : [caption]),
      '\\end{table}\n',
    ].join('\n'),
  );
  d.blocks.push({ kind: 'table', table: { rows: row, cols, headerRows, cells }, caption: `Table ${d.table}: ${captionText}` });
  d.budget -= 120 * row;
}
