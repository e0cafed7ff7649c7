/** Markdown tables for result files. */

/**
 * A GFM table from a header row and body rows; pipes inside cells are escaped.
 *
 * @example
 * markdownTable(['a', 'b'], [[1, 2]]) // '| a | b |\n|---|---|\n| 1 | 2 |'
 */
export function markdownTable(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cell = (v: string | number): string => String(v).replaceAll('|', '\\|').replaceAll('\n', ' ');
  return [`| ${header.map(cell).join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`)].join('\n');
}

/** A fraction as a percentage with one decimal. */
export function percent(fraction: number): string {
  return Number.isFinite(fraction) ? `${(fraction * 100).toFixed(1)}%` : 'n/a';
}
