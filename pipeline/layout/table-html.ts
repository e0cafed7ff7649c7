/** Table cells as HTML: spanning cells as `colspan` / `rowspan`, the header rows as `<th>`. */

/** A cell held by the cell to its left: that one spans it (`colspan`). */
export const SPANNED = '\u0000';
/** A cell held by the cell above it (`rowspan`); ruled tables make them (`ruled-tables.ts`). */
export const ROW_SPANNED = '\u0001';

/** A cell that is one figure: `1,530`, `-0.4`, `(12)`, `85.1%`, `$ 3.2`, a dash for none. */
export const FIGURE = /^[-+\u2212\u2013(]?[$€£]?\s?\d[\d.,\s]*%?\)?\*{0,3}$|^[\u2013\u2014-]$/;

const filled = (c: string | undefined): boolean => c !== undefined && c !== '' && c !== SPANNED && c !== ROW_SPANNED;

/**
 * The row under group headers that names their sub-columns is a header row too, though nothing
 * reaches down into it: words only (two or more, no figure), right under a row with a spanning
 * cell, over columns the rows below fill with figures (`#`, `Topic`, `Procedure`, `Completion`
 * under `ReACT` spanning two). A body row of words over figures has no spanning row above it.
 */
function namesSubColumns(cells: readonly (readonly string[])[], r: number): boolean {
  const row = cells[r];
  if (row === undefined || r === 0 || !(cells[r - 1] ?? []).includes(SPANNED)) return false;
  const named = row.map((c, j) => (filled(c) ? j : -1)).filter((j) => j >= 0);
  if (named.length < 2 || named.some((j) => FIGURE.test(row[j]!))) return false;
  const below = cells.slice(r + 1);
  const ofFigures = named.filter((j) => {
    const values = below.map((b) => b[j]).filter(filled);
    return values.length > 0 && values.filter((v) => FIGURE.test(v!)).length >= 0.6 * values.length;
  });
  return ofFigures.length >= 0.5 * named.length;
}

/** Cells as an HTML table; the first row as header cells, {@link SPANNED} and {@link ROW_SPANNED} cells as spans. */
export function tableHtml(cells: readonly (readonly string[])[]): string {
  const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  // A header cell reaching down (rowspan) takes the rows it covers into the head with it.
  let headRows = 1;
  (cells[0] ?? []).forEach((cell, c) => {
    if (cell === SPANNED || cell === ROW_SPANNED) return;
    let down = 1;
    while (cells[down]?.[c] === ROW_SPANNED) down++;
    headRows = Math.max(headRows, down);
  });
  if (namesSubColumns(cells, headRows)) headRows++;
  const rows = cells.map((row, r) => {
    const tag = r < headRows ? 'th' : 'td';
    let html = '';
    for (let c = 0; c < row.length; c++) {
      if (row[c] === SPANNED || row[c] === ROW_SPANNED) continue;
      let span = 1;
      while (row[c + span] === SPANNED) span++;
      let down = 1;
      while (cells[r + down]?.[c] === ROW_SPANNED) down++;
      const attrs = `${span > 1 ? ` colspan="${span}"` : ''}${down > 1 ? ` rowspan="${down}"` : ''}`;
      html += `<${tag}${attrs}>${esc(row[c]!)}</${tag}>`;
    }
    return `<tr>${html}</tr>`;
  });
  return `<table><thead>${rows.slice(0, headRows).join('')}</thead><tbody>${rows.slice(headRows).join('')}</tbody></table>`;
}
