/**
 * What the ground-truth comparison reads from a Markdown document: its plain text, its headings,
 * its text blocks in order, and its tables as rows of cells (from pipe tables and HTML tables).
 */
import type { RootContent as HastContent, Element as HastElement, Root as HastRoot } from 'hast';
import type { RootContent as MdContent, Root as MdRoot, Table as MdTable } from 'mdast';
import { toString } from 'mdast-util-to-string';
import rehypeParse from 'rehype-parse';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

export interface TableCell {
  readonly text: string;
  readonly rowspan: number;
  readonly colspan: number;
  readonly header: boolean;
}

/** A table as rows of cells, spans kept (not expanded), ready for tree edit distance. */
export type TableRows = readonly (readonly TableCell[])[];

export interface MarkdownDigest {
  /** All text, whitespace collapsed, DeepSeek grounding tags and HTML tags dropped. */
  readonly text: string;
  readonly headings: readonly string[];
  /** Headings, paragraphs, list items, in document order. */
  readonly blocks: readonly string[];
  readonly tables: readonly TableRows[];
}

const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();

// DeepSeek-OCR grounding tags carry boxes, not text.
const GROUNDING = /<\|ref\|>[\s\S]*?<\|\/ref\|><\|det\|>[\s\S]*?<\|\/det\|>/g;

function hastText(node: HastContent): string {
  if (node.type === 'text') return node.value;
  if (node.type !== 'element') return '';
  if (node.tagName === 'br') return ' ';
  return node.children.map(hastText).join('');
}

function collectElements(node: HastRoot | HastElement, tag: string, out: HastElement[]): void {
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (child.tagName === tag) out.push(child);
    else collectElements(child, tag, out);
  }
}

/** HTML `<table>`s as rows of cells. */
export function htmlTables(html: string): TableRows[] {
  const tree = unified().use(rehypeParse, { fragment: true }).parse(html);
  const tables: HastElement[] = [];
  collectElements(tree, 'table', tables);
  return tables.map((table) => {
    const rows: HastElement[] = [];
    collectElements(table, 'tr', rows);
    const inHead = new Set<HastElement>();
    const heads: HastElement[] = [];
    collectElements(table, 'thead', heads);
    for (const head of heads) {
      const headRows: HastElement[] = [];
      collectElements(head, 'tr', headRows);
      headRows.forEach((r) => inHead.add(r));
    }
    const span = (v: unknown): number => {
      const n = Number(v);
      return Number.isInteger(n) && n > 0 ? n : 1;
    };
    return rows.map((row) =>
      row.children
        .filter((c): c is HastElement => c.type === 'element' && (c.tagName === 'td' || c.tagName === 'th'))
        .map((cell) => ({
          text: collapse(cell.children.map(hastText).join('')),
          rowspan: span(cell.properties['rowSpan']),
          colspan: span(cell.properties['colSpan']),
          header: cell.tagName === 'th' || inHead.has(row),
        })),
    );
  });
}

function mdTable(table: MdTable): TableRows {
  return table.children.map((row, r) => row.children.map((cell) => ({ text: collapse(toString(cell)), rowspan: 1, colspan: 1, header: r === 0 })));
}

/**
 * Digest a Markdown document (GFM, math, inline HTML) for comparison.
 *
 * @example
 * digestMarkdown('# Title\n\nText.').headings // ['Title']
 */
export function digestMarkdown(markdown: string): MarkdownDigest {
  const source = markdown.replace(GROUNDING, '');
  const tree = unified().use(remarkParse).use(remarkGfm).use(remarkMath).parse(source) as MdRoot;
  const headings: string[] = [];
  const blocks: string[] = [];
  const tables: TableRows[] = [];
  const texts: string[] = [];
  const visit = (node: MdContent): void => {
    switch (node.type) {
      case 'heading': {
        const text = collapse(toString(node));
        headings.push(text);
        blocks.push(text);
        texts.push(text);
        return;
      }
      case 'paragraph': {
        const text = collapse(toString(node));
        blocks.push(text);
        texts.push(text);
        return;
      }
      case 'table':
        tables.push(mdTable(node));
        texts.push(collapse(toString(node, { includeHtml: false })));
        return;
      case 'html': {
        tables.push(...htmlTables(node.value));
        texts.push(collapse(node.value.replace(/<[^>]+>/g, ' ')));
        return;
      }
      case 'math':
      case 'code':
        texts.push(collapse(node.value));
        return;
      default:
        if ('children' in node) for (const child of node.children as MdContent[]) visit(child);
        else if ('value' in node && typeof node.value === 'string') texts.push(collapse(node.value));
    }
  };
  for (const child of tree.children) visit(child);
  return { text: collapse(texts.join(' ')), headings, blocks: blocks.filter((b) => b.length > 0), tables };
}
