/** Table cells as HTML: spanning cells as `colspan` / `rowspan`, the header rows as `<th>`. */

/** A cell held by the cell to its left: that one spans it (`colspan`). */
export const SPANNED = '\u0000';
/** A cell held by the cell above it (`rowspan`); ruled tables make them (`ruled-tables.ts`). */
export const ROW_SPANNED = '\u0001';

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
