import type { ElementContent, Element as HastElement, Root as HastRoot, RootContent } from 'hast';
import { unified } from 'unified';
import { readSimpleTable } from './html-table.ts';
import { onFirstUse } from './on-first-use.ts';
import type { SourceCell, SourceRow } from './table.ts';
import { collapseSpaces } from './text.ts';

/** What an HTML block of OCR output holds, in order. */
export type HtmlPart =
  | { readonly type: 'table'; readonly rows: readonly SourceRow[]; readonly issues: readonly string[] }
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly alt: string };

// parse5 under rehype-parse repairs any HTML (unclosed cells, stray tags) the way browsers do.
// Loaded on first use: the text layer's tables all take the fast path.
const loadRehypeParse = onFirstUse<typeof import('rehype-parse')>('rehype-parse');
let htmlParser: { parse(html: string): unknown } | undefined;

const blockTags = new Set([
  'p',
  'div',
  'center',
  'section',
  'article',
  'header',
  'footer',
  'br',
  'li',
  'ul',
  'ol',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'figure',
  'figcaption',
  'caption',
  'pre',
  'hr',
  'dl',
  'dt',
  'dd',
]);

/**
 * Split an HTML block into tables, images and runs of text. Never throws.
 *
 * @example
 * readHtml('<table><tr><td>a</td></tr></table>')[0]?.type // 'table'
 */
export function readHtml(html: string, { fastPath = true }: Readonly<{ fastPath?: boolean }> = {}): HtmlPart[] {
  const simple = fastPath ? readSimpleTable(html) : undefined;
  if (simple) return [{ type: 'table', rows: simple, issues: tagBalance(html) }];
  htmlParser ??= unified().use(loadRehypeParse().default, { fragment: true });
  const tree = htmlParser.parse(html) as HastRoot;
  const parts: HtmlPart[] = [];
  let text = '';
  const flush = (): void => {
    const clean = collapseSpaces(text);
    if (clean !== '') parts.push({ type: 'text', text: clean });
    text = '';
  };
  const walk = (nodes: readonly (RootContent | ElementContent)[]): void => {
    for (const node of nodes) {
      if (node.type === 'text') text += node.value;
      else if (node.type === 'element') {
        if (node.tagName === 'table') {
          flush();
          parts.push({ type: 'table', ...readTable(node, html) });
        } else if (node.tagName === 'img') {
          flush();
          parts.push({ type: 'image', alt: collapseSpaces(String(node.properties['alt'] ?? '')) });
        } else {
          const block = blockTags.has(node.tagName);
          if (block) text += '\n';
          walk(node.children);
          if (block) text += '\n';
        }
      }
    }
  };
  walk(tree.children);
  flush();
  return parts;
}

function readTable(table: HastElement, html: string): { rows: SourceRow[]; issues: string[] } {
  const rows: SourceRow[] = [];
  const visit = (node: HastElement, head: boolean): void => {
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      if (child.tagName === 'tr') rows.push({ head, cells: readRow(child) });
      else if (child.tagName === 'thead') visit(child, true);
      else if (child.tagName === 'tbody' || child.tagName === 'tfoot') visit(child, false);
    }
  };
  visit(table, false);
  return { rows, issues: tagBalance(html) };
}

function readRow(row: HastElement): SourceCell[] {
  const cells: SourceCell[] = [];
  for (const child of row.children) {
    if (child.type !== 'element' || (child.tagName !== 'td' && child.tagName !== 'th')) continue;
    cells.push({
      text: cellText(child),
      rowspan: Number(child.properties['rowSpan'] ?? 1),
      colspan: Number(child.properties['colSpan'] ?? 1),
      header: child.tagName === 'th',
    });
  }
  return cells;
}

function cellText(node: HastElement): string {
  let text = '';
  const walk = (nodes: readonly ElementContent[]): void => {
    for (const child of nodes) {
      if (child.type === 'text') text += child.value;
      else if (child.type === 'element') {
        if (child.tagName === 'br' || child.tagName === 'p' || child.tagName === 'div') text += ' ';
        if (child.tagName === 'img') text += String(child.properties['alt'] ?? '');
        walk(child.children);
      }
    }
  };
  walk(node.children);
  return collapseSpaces(text);
}

// parse5 repairs unbalanced markup silently; count the tags in the source so the quality gate sees it.
const balance = ['table', 'tr', 'td', 'th'].map((tag) => ({ tag, open: new RegExp(`<${tag}[\\s>]`, 'giu'), close: new RegExp(`</${tag}\\s*>`, 'giu') }));

function tagBalance(html: string): string[] {
  const issues: string[] = [];
  for (const { tag, open, close } of balance) {
    const opened = html.match(open)?.length ?? 0;
    const closed = html.match(close)?.length ?? 0;
    if (opened !== closed) issues.push(`unbalanced <${tag}>: ${opened} opened, ${closed} closed`);
  }
  return issues;
}
