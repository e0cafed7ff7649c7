/**
 * A table spec as a printed page (HTML for Chromium's print-to-PDF: a heading, prose around the
 * caption and table) and as ICDAR 2013 structure XML (`-str.xml`), so `bench/quality/icdar`
 * scores the synthetic set with the same adjacency-relation F1 as the ICDAR documents.
 */
import type { Ruling, TableSpec } from './shapes.ts';

const esc = (s: string): string => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

const PROSE =
  'The figures below are drawn from the annual survey of enterprises and households. Estimates are weighted to the population and rounded; totals may therefore differ slightly from the sum of their parts. Definitions follow the classification in force at the time of the survey.';

/** Borders per ruling: booktabs draws heavy top and bottom rules, a thin rule under the header and short rules under group headers. */
function css(ruling: Ruling): string {
  const base = 'table { border-collapse: collapse; margin: 10pt 0; } td, th { padding: 2pt 6pt; vertical-align: top; font-weight: normal; }';
  switch (ruling) {
    case 'grid':
      return `${base} td, th { border: 0.75pt solid #000; }`;
    case 'booktabs':
      return `${base} table { border-top: 1.2pt solid #000; border-bottom: 1.2pt solid #000; } tr.last-head th { border-bottom: 0.6pt solid #000; } th.group { border-bottom: 0.5pt solid #000; }`;
    case 'header-rule':
      return `${base} tr.last-head th { border-bottom: 0.75pt solid #000; }`;
    default:
      return base;
  }
}

/**
 * Sideways header text: `vertical-rl` turns Latin a quarter clockwise (top to bottom); turned
 * half round again it reads bottom to top, as most sideways headers do.
 */
function turnedCss(turn: TableSpec['turned']): string {
  if (turn === 0) return '';
  const flip = turn === 270 ? ' transform: rotate(180deg);' : '';
  return `th { vertical-align: bottom; } .turned { writing-mode: vertical-rl; white-space: nowrap;${flip} }`;
}

/** The page's HTML: heading, a paragraph, the caption, the table, a closing paragraph. */
export function pageHtml(spec: TableSpec): string {
  const rows: string[] = [];
  for (let r = 0; r < spec.rows; r++) {
    const inRow = spec.cells.filter((c) => c.row === r).sort((a, b) => a.col - b.col);
    // A row of one stub cell (a section label) gets its empty cells, so the grid keeps its columns.
    const empty = inRow.length === 1 && inRow[0]!.colspan === 1 && r >= spec.headerRows && !spec.cells.some((c) => c.row < r && c.row + c.rowspan > r);
    const html =
      inRow
        .map((c) => {
          const tag = c.header ? 'th' : 'td';
          const attrs = [
            c.colspan > 1 ? ` colspan="${c.colspan}"` : '',
            c.rowspan > 1 ? ` rowspan="${c.rowspan}"` : '',
            c.header && c.colspan > 1 ? ' class="group"' : '',
            // Figures right-aligned, labels left; a stub cell wraps at the stub width.
            c.col === 0
              ? ` style="text-align:left;max-width:${spec.stubEms}em"`
              : c.text.length > 40
                ? ` style="text-align:${spec.justify ? 'justify' : 'left'}"`
                : /\d/.test(c.text)
                  ? ' style="text-align:right"'
                  : ' style="text-align:center"',
          ].join('');
          const sideways = spec.turned !== 0 && c.header && c.col > 0 && c.colspan === 1;
          return `<${tag}${attrs}>${sideways ? `<span class="turned">${esc(c.text)}</span>` : esc(c.text)}</${tag}>`;
        })
        .join('') + (empty ? '<td></td>'.repeat(spec.cols - 1) : '');
    rows.push(`<tr${r === spec.headerRows - 1 ? ' class="last-head"' : ''}>${html}</tr>`);
  }
  const width = spec.width === undefined ? '' : ` style="width:${(spec.width * 100).toFixed(0)}%"`;
  return `<!doctype html><html><head><meta charset="utf-8"><style>
body { font-family: 'DejaVu Serif', 'Liberation Serif', serif; font-size: ${spec.size}pt; margin: 0; }
h1 { font-size: ${spec.size + 5}pt; } p { text-align: justify; line-height: 1.3; } .caption { font-weight: bold; margin-top: 14pt; }
${css(spec.ruling)}
${turnedCss(spec.turned)}
</style></head><body><h1>Statistical annex</h1><p>${PROSE}</p><p class="caption">${esc(spec.caption)}</p>
<table${width}>${rows.join('')}</table><p>${PROSE}</p></body></html>`;
}

/** The table as ICDAR 2013 structure XML: one region, each non-empty cell with its start and end slots. */
export function structureXml(spec: TableSpec, file: string): string {
  const cells = spec.cells
    .filter((c) => c.text !== '')
    .map(
      (c) =>
        `<cell id="${c.row}-${c.col}" start-row="${c.row}" start-col="${c.col}"${c.rowspan > 1 ? ` end-row="${c.row + c.rowspan - 1}"` : ''}${c.colspan > 1 ? ` end-col="${c.col + c.colspan - 1}"` : ''}><content>${esc(c.text)}</content></cell>`,
    );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<document filename="${esc(file)}">\n<table id="1"><region id="1" page="1">\n${cells.join('\n')}\n</region></table>\n</document>\n`;
}
