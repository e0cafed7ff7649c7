/**
 * Find the tables in candidate Markdown: GFM-style pipe tables (found line by line, as the
 * benchmark does, so a table without a separator row still counts) and HTML `<table>`s anywhere in
 * the text (rowspan and colspan honoured).
 */
import type { Element as HastElement, Root as HastRoot, RootContent } from 'hast';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import type { CellSpec, TableGraph } from './table-graph.ts';
import { buildTableGraph } from './table-graph.ts';

/** Rows of cell text from the lines of one pipe table; separator and pure-format lines dropped. */
function pipeRows(lines: readonly string[]): string[][] {
  const isFormatOnly = (text: string, allowed: string): boolean => [...text].every((c) => allowed.includes(c));
  const separator = lines.findIndex((line) => {
    const content = line.replaceAll('|', '').trim();
    return content.length > 0 && isFormatOnly(content, '- :');
  });
  const rows: string[][] = [];
  lines.forEach((line, i) => {
    if (i === separator) return;
    if (line.trim() && isFormatOnly(line, '- :|')) return;
    let cells = line.split('|').map((cell) => cell.trim());
    if (cells[0] === '') cells = cells.slice(1);
    if (cells.at(-1) === '') cells = cells.slice(0, -1);
    if (cells.length > 0) rows.push(cells);
  });
  return rows;
}

/**
 * Every run of two or more consecutive lines containing `|` is a table; the first row and the
 * first column are its headings.
 *
 * @example
 * parseMarkdownTables('| a | b |\n|---|---|\n| 1 | 2 |').length // 1
 */
export function parseMarkdownTables(markdown: string): TableGraph[] {
  const tables: TableGraph[] = [];
  let current: string[] = [];
  const flush = (): void => {
    if (current.length >= 2) {
      const rows = pipeRows(current);
      const specs = rows.map((row, r) => row.map((text, c): CellSpec => ({ text, rowspan: 1, colspan: 1, heading: r === 0 || c === 0 })));
      const table = specs.length > 0 ? buildTableGraph(specs) : undefined;
      if (table) tables.push(table);
    }
    current = [];
  };
  for (const line of markdown.trim().split('\n')) {
    if (line.includes('|')) current.push(line);
    else flush();
  }
  flush();
  return tables;
}

function isElement(node: RootContent | HastRoot, tag?: string): node is HastElement {
  return node.type === 'element' && (tag === undefined || node.tagName === tag);
}

/** Text content with `<br>` as a newline and nothing added between elements. */
function cellText(node: RootContent): string {
  if (node.type === 'text') return node.value;
  if (node.type !== 'element') return '';
  if (node.tagName === 'br') return '\n';
  return node.children.map(cellText).join('');
}

function span(value: unknown): number {
  const n = typeof value === 'number' ? value : Number.parseInt(String(value ?? ''), 10);
  return Number.isFinite(n) && n > 0 ? n : 1;
}

function collect(node: HastElement | HastRoot, tag: string, out: HastElement[], inThead = false, theadFlags?: boolean[]): void {
  for (const child of node.children) {
    if (!isElement(child)) continue;
    const thead = inThead || child.tagName === 'thead';
    if (child.tagName === tag) {
      out.push(child);
      theadFlags?.push(thead);
    }
    collect(child, tag, out, thead, theadFlags);
  }
}

/**
 * Every `<table>` in the text, nested ones included. A cell is a heading when it is a `<th>` or
 * its row sits in a `<thead>`; `rowspan="0"` runs to the last row.
 *
 * @example
 * parseHtmlTables('<table><tr><th>a</th></tr><tr><td>1</td></tr></table>').length // 1
 */
export function parseHtmlTables(content: string): TableGraph[] {
  if (!/<table/i.test(content)) return [];
  const tree = unified().use(rehypeParse, { fragment: true }).parse(content);
  const tableNodes: HastElement[] = [];
  collect(tree, 'table', tableNodes);
  const tables: TableGraph[] = [];
  for (const table of tableNodes) {
    const rows: HastElement[] = [];
    const inThead: boolean[] = [];
    collect(table, 'tr', rows, false, inThead);
    if (rows.length === 0) continue;
    const specs = rows.map((row, r) =>
      row.children
        .filter((c): c is HastElement => isElement(c) && (c.tagName === 'td' || c.tagName === 'th'))
        .map((cell): CellSpec => {
          const rawRowspan = cell.properties['rowSpan'];
          const rowspan = String(rawRowspan ?? '').trim() === '0' ? Math.max(1, rows.length - r) : span(rawRowspan);
          return {
            text: cell.children.map(cellText).join('').trim(),
            rowspan,
            colspan: span(cell.properties['colSpan']),
            heading: cell.tagName === 'th' || inThead[r] === true,
          };
        }),
    );
    const graph = buildTableGraph(specs);
    if (graph) tables.push(graph);
  }
  return tables;
}
