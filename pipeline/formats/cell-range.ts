/**
 * A1-style cell references, as spreadsheet applications write them: the provenance of what is read
 * from a sheet (`Sheet1!A1:D40`), and narrowed to the rows of a table part when a chunk holds only
 * some of a table's rows.
 */

/** `0` → `A`, `25` → `Z`, `26` → `AA`. */
export function columnName(col: number): string {
  let name = '';
  for (let n = col + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/**
 * Cells from 0-based row and column bounds, inclusive: one cell is `B2`, more are `A1:D40`.
 *
 * @example
 * cellRange(0, 0, 39, 3) // 'A1:D40'
 */
export function cellRange(top: number, left: number, bottom: number, right: number): string {
  const first = `${columnName(left)}${top + 1}`;
  return top === bottom && left === right ? first : `${first}:${columnName(right)}${bottom + 1}`;
}

/**
 * The range with its sheet, quoted when the name needs it (`'Q3 sales'!A1:B2`, a quote doubled).
 *
 * @example
 * sheetRange('Sheet1', 'A1:D40') // 'Sheet1!A1:D40'
 */
export function sheetRange(sheet: string | undefined, range: string): string {
  if (sheet === undefined) return range;
  const name = /^[A-Za-z_][\w.]*$/.test(sheet) ? sheet : `'${sheet.replace(/'/g, "''")}'`;
  return `${name}!${range}`;
}

/**
 * The rows `from`..`to` (0-based, counted from the range's first row) of a range, keeping its sheet
 * and columns; undefined when `range` is not an A1 range.
 *
 * @example
 * rowsOf('Sheet1!A1:D40', 10, 19) // 'Sheet1!A11:D20'
 */
export function rowsOf(range: string, from: number, to: number): string | undefined {
  const match = /^(.*!)?\$?([A-Z]+)\$?(\d+)(?::\$?([A-Z]+)\$?(\d+))?$/.exec(range);
  if (match === null) return undefined;
  const [, sheet = '', left, top, right = left] = match;
  const first = Number(top);
  return `${sheet}${left}${first + from}:${right}${first + to}`;
}
