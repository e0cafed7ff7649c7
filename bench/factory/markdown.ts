/** The truth's body as Markdown: what a perfect reader of the document would write. */
import type { TruthBlock, TruthCell, TruthTable } from './types.ts';

export const escHtml = (s: string): string => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/**
 * A table's rows as HTML, `<th>` for header cells, spans kept; `attributes` adds a cell's own
 * (a class for the printed page's CSS).
 */
export function tableRowsHtml(table: TruthTable, attributes: (cell: TruthCell) => string = () => ''): string[] {
  const rows: string[] = [];
  for (let r = 0; r < table.rows; r++) {
    const cells = table.cells
      .filter((c) => c.row === r)
      .sort((a, b) => a.col - b.col)
      .map((c) => {
        const tag = c.header ? 'th' : 'td';
        const spans = `${c.colspan > 1 ? ` colspan="${c.colspan}"` : ''}${c.rowspan > 1 ? ` rowspan="${c.rowspan}"` : ''}`;
        return `<${tag}${spans}${attributes(c)}>${escHtml(c.text)}</${tag}>`;
      });
    rows.push(`<tr>${cells.join('')}</tr>`);
  }
  return rows;
}

/** A table as HTML with its spans and header cells: Markdown pipes cannot say either. */
export function tableMarkdown(table: TruthTable): string {
  return `<table>${tableRowsHtml(table).join('')}</table>`;
}

function blockMarkdown(block: TruthBlock): string {
  switch (block.kind) {
    case 'heading':
      return `${'#'.repeat(block.level)} ${block.text}`;
    case 'paragraph':
    case 'caption':
      return block.text;
    case 'list': {
      const counters: number[] = [];
      return block.items
        .map((item) => {
          counters.length = item.depth + 1;
          counters[item.depth] = (counters[item.depth] ?? 0) + 1;
          return `${'   '.repeat(item.depth)}${block.ordered ? `${counters[item.depth]}.` : '-'} ${item.text}`;
        })
        .join('\n');
    }
    case 'table':
      return block.caption === undefined ? tableMarkdown(block.table) : `${block.caption}\n\n${tableMarkdown(block.table)}`;
    case 'formula':
      return `$$\n${block.latex}\n$$`;
    case 'field':
      return `${block.label}: ${block.value}`;
    case 'code':
      return `\`\`\`\n${block.text}\n\`\`\``;
  }
}

/**
 * @example
 * truthMarkdown([{ kind: 'heading', level: 1, text: 'Title' }, { kind: 'paragraph', text: 'Body.' }]) // '# Title\n\nBody.\n'
 */
export function truthMarkdown(blocks: readonly TruthBlock[]): string {
  return `${blocks.map(blockMarkdown).join('\n\n')}\n`;
}

/** The body's plain text in reading order, for CER: no Markdown syntax, table cells row by row. */
export function truthPlainText(blocks: readonly TruthBlock[]): string {
  return blocks
    .map((block) => {
      switch (block.kind) {
        case 'list':
          return block.items.map((i) => i.text).join('\n');
        case 'table': {
          const rows: string[] = [];
          for (let r = 0; r < block.table.rows; r++)
            rows.push(
              block.table.cells
                .filter((c) => c.row === r)
                .sort((a, b) => a.col - b.col)
                .map((c) => c.text)
                .join(' '),
            );
          return [block.caption, ...rows].filter((x) => x !== undefined).join('\n');
        }
        case 'formula':
          return block.latex;
        case 'field':
          return `${block.label} ${block.value}`;
        default:
          return block.text;
      }
    })
    .join('\n\n');
}
