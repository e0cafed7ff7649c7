/**
 * Tables in candidate Markdown as ICDAR grids: HTML `<table>`s laid out as a browser does
 * (rowspan/colspan, nested tables kept apart) and pipe tables (one slot per cell).
 */
import type { Element as HastElement, Root as HastRoot, RootContent } from 'hast';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import type { Grid, GridCell } from './grid.ts';
import { normalizeCellText } from './grid.ts';

const isElement = (node: RootContent | HastRoot, tag?: string): node is HastElement => node.type === 'element' && (tag === undefined || node.tagName === tag);

function textOf(node: RootContent): string {
  if (node.type === 'text') return node.value;
  if (node.type !== 'element') return '';
  if (node.tagName === 'br') return ' ';
  return node.children.map(textOf).join('');
}

/** The `<tr>`s of one table: its own, not those of tables nested in its cells. */
function ownRows(table: HastElement): HastElement[] {
  const rows: HastElement[] = [];
  const walk = (node: HastElement): void => {
    for (const child of node.children) {
      if (!isElement(child) || child.tagName === 'table') continue;
      if (child.tagName === 'tr') rows.push(child);
      else if (['thead', 'tbody', 'tfoot'].includes(child.tagName)) walk(child);
    }
  };
  walk(table);
  return rows;
}

const spanOf = (value: unknown): number => {
  const n = Number.parseInt(String(value ?? ''), 10);
  return Number.isFinite(n) && n >= 0 ? n : 1;
};

/** Browser-style layout of one HTML table's rows. */
export function layoutHtmlTable(table: HastElement): Grid {
  const rows = ownRows(table);
  const held = new Set<string>();
  const cells: GridCell[] = [];
  rows.forEach((tr, r) => {
    let col = 0;
    for (const td of tr.children) {
      if (!isElement(td) || (td.tagName !== 'td' && td.tagName !== 'th')) continue;
      while (held.has(`${r},${col}`)) col++;
      const rowspanRaw = spanOf(td.properties['rowSpan']);
      const rowspan = rowspanRaw === 0 ? Math.max(1, rows.length - r) : rowspanRaw;
      const colspan = Math.max(1, spanOf(td.properties['colSpan']));
      for (let i = 0; i < rowspan; i++) for (let j = 0; j < colspan; j++) held.add(`${r + i},${col + j}`);
      cells.push({ text: normalizeCellText(td.children.map(textOf).join('')), row: r, col, endRow: r + rowspan - 1, endCol: col + colspan - 1 });
      col += colspan;
    }
  });
  return { cells };
}

function allTables(node: HastElement | HastRoot, out: HastElement[]): void {
  for (const child of node.children) {
    if (!isElement(child)) continue;
    if (child.tagName === 'table') out.push(child);
    allTables(child, out);
  }
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Pipe-table cell text: tags, paired emphasis/code marks and backslash escapes removed, entities decoded. */
export function cleanPipeCell(text: string): string {
  let t = text.replace(/<br\s*\/?>/gi, ' ').replace(/<[^>]+>/g, '');
  for (let i = 0; i < 3; i++) t = t.replace(/(\*\*|__|\*|_|~~|`)(\S(?:.*?\S)?)\1/g, '$2');
  t = t.replace(/\\([\\`*_{}[\]()#+\-.!|~<>])/g, '$1');
  t = t.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return ENTITIES[e.toLowerCase()] ?? m;
  });
  return t;
}

function pipeGrid(lines: readonly string[]): Grid | undefined {
  const cells: GridCell[] = [];
  let r = 0;
  for (const line of lines) {
    if (/^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(line)) continue;
    let parts = line.split(/(?<!\\)\|/);
    if (parts[0]!.trim() === '') parts = parts.slice(1);
    if (parts.length > 0 && parts.at(-1)!.trim() === '') parts = parts.slice(0, -1);
    parts.forEach((p, c) => cells.push({ text: normalizeCellText(cleanPipeCell(p)), row: r, col: c, endRow: r, endCol: c }));
    r++;
  }
  return r > 0 ? { cells } : undefined;
}

/**
 * Every table of a Markdown document, in document order of discovery (pipe tables, then HTML).
 *
 * @example
 * predictedTables('<table><tr><td>a</td><td>b</td></tr></table>').length // 1
 */
export function predictedTables(markdown: string): Grid[] {
  const grids: Grid[] = [];
  // Pipe tables: runs of two or more lines that start with `|` (a GFM table as we and the baselines write it).
  let run: string[] = [];
  const flush = (): void => {
    if (run.length >= 2) {
      const g = pipeGrid(run);
      if (g) grids.push(g);
    }
    run = [];
  };
  for (const line of markdown.split('\n')) {
    if (/^\s*\|/.test(line) && line.indexOf('|') !== line.lastIndexOf('|')) run.push(line);
    else flush();
  }
  flush();
  if (/<table/i.test(markdown)) {
    const tree = unified().use(rehypeParse, { fragment: true }).parse(markdown);
    const tables: HastElement[] = [];
    allTables(tree, tables);
    for (const t of tables) grids.push(layoutHtmlTable(t));
  }
  return grids;
}
