/**
 * The pieces of the HTML reader: what is boilerplate, inline formatting, list items, table rows
 * with their spans, and plain text of a subtree.
 */
import type { Element as HastElement, RootContent as HastNode, Root as HastRoot } from 'hast';
import type { ListItem, Span, TableCell } from './blocks.ts';

export const DROPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'nav',
  'aside',
  'form',
  'button',
  'select',
  'textarea',
  'iframe',
  'svg',
  'canvas',
  'object',
  'embed',
  'head',
  'title',
  'meta',
  'link',
  'dialog',
]);
export const BOILERPLATE_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'search', 'complementary', 'menu', 'menubar']);
export const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'address',
  'center',
  'fieldset',
  'details',
  'summary',
  'figure',
  'figcaption',
  'hr',
  'blockquote',
  'pre',
  'ul',
  'ol',
  'dl',
  'dt',
  'dd',
  'li',
  'table',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'body',
  'html',
  'hgroup',
  'caption',
]);

export function isElement(node: HastNode | HastRoot): node is HastElement {
  return node.type === 'element';
}

export function dropped(node: HastElement): boolean {
  if (DROPPED.has(node.tagName)) return true;
  const p = node.properties;
  if (p['hidden'] !== undefined && p['hidden'] !== false) return true;
  if (String(p['ariaHidden']) === 'true') return true;
  if (typeof p['role'] === 'string' && BOILERPLATE_ROLES.has(p['role'])) return true;
  if (typeof p['style'] === 'string' && /display\s*:\s*none/i.test(p['style'])) return true;
  // A page footer or a header holding the site navigation is boilerplate; an article's own header is not.
  return (node.tagName === 'footer' || node.tagName === 'header') && hasDescendant(node, 'nav');
}

export function hasDescendant(node: HastElement, tag: string): boolean {
  return node.children.some((c) => isElement(c) && (c.tagName === tag || hasDescendant(c, tag)));
}

export function findAll(node: HastElement | HastRoot, test: (e: HastElement) => boolean, out: HastElement[] = []): HastElement[] {
  for (const c of node.children) {
    if (!isElement(c)) continue;
    if (test(c)) out.push(c);
    else findAll(c, test, out);
  }
  return out;
}

export interface Format {
  readonly bold?: boolean;
  readonly italic?: boolean;
  readonly code?: boolean;
  readonly href?: string;
}

/** Plain text of a subtree, whitespace collapsed, blocks and cells separated by a space. */
export function plainText(node: HastNode): string {
  if (node.type === 'text') return node.value;
  if (!isElement(node) || dropped(node)) return '';
  if (node.tagName === 'br') return ' ';
  if (node.tagName === 'img') return typeof node.properties['alt'] === 'string' ? ` ${node.properties['alt']} ` : '';
  const inner = node.children.map(plainText).join('');
  return BLOCKS.has(node.tagName) || node.tagName === 'td' || node.tagName === 'th' ? ` ${inner} ` : inner;
}

export function inlineFormat(node: HastElement, format: Format): Format {
  switch (node.tagName) {
    case 'b':
    case 'strong':
      return { ...format, bold: true };
    case 'i':
    case 'em':
    case 'cite':
    case 'dfn':
      return { ...format, italic: true };
    case 'code':
    case 'kbd':
    case 'samp':
    case 'tt':
      return { ...format, code: true };
    case 'a': {
      const href = node.properties['href'];
      return typeof href === 'string' ? { ...format, href } : format;
    }
    default:
      return format;
  }
}

/** Inline spans of a heading or list item: every descendant's text, blocks read as spaces. */
export function inlineSpans(node: HastElement, format: Format, skip?: (e: HastElement) => boolean): Span[] {
  const spans: Span[] = [];
  const visit = (n: HastElement, f: Format): void => {
    for (const c of n.children) {
      if (c.type === 'text') spans.push({ text: c.value.replace(/\s+/g, ' '), ...f });
      else if (isElement(c) && !dropped(c) && !skip?.(c)) {
        if (c.tagName === 'br') spans.push({ text: ' ' });
        else if (c.tagName === 'img') spans.push({ text: typeof c.properties['alt'] === 'string' ? ` ${c.properties['alt']} ` : '' });
        else if (c.tagName === 'table' || c.tagName === 'pre') spans.push({ text: ` ${plainText(c)} ` });
        else {
          if (BLOCKS.has(c.tagName)) spans.push({ text: ' ' });
          visit(c, inlineFormat(c, f));
          if (BLOCKS.has(c.tagName)) spans.push({ text: ' ' });
        }
      }
    }
  };
  visit(node, format);
  return spans;
}

export const isList = (e: HastElement): boolean => e.tagName === 'ul' || e.tagName === 'ol' || e.tagName === 'dl';

export function listItems(list: HastElement, level: number, items: ListItem[]): void {
  const ordered = list.tagName === 'ol';
  const start = Number(list.properties['start']);
  let first = true;
  for (const child of list.children) {
    if (!isElement(child) || dropped(child)) continue;
    if (child.tagName === 'li' || child.tagName === 'dt' || child.tagName === 'dd') {
      const itemLevel = child.tagName === 'dd' ? level + 1 : level;
      const format: Format = child.tagName === 'dt' ? { bold: true } : {};
      items.push({
        spans: inlineSpans(child, format, isList),
        level: itemLevel,
        ordered,
        ...(ordered && first && Number.isInteger(start) ? { number: start } : {}),
      });
      first = false;
      for (const nested of findAll(child, isList)) listItems(nested, itemLevel + 1, items);
    } else if (isList(child)) listItems(child, level + 1, items);
    else if (child.tagName === 'div') listItems(child, level, items);
  }
}

export function rawText(node: HastNode): string {
  if (node.type === 'text') return node.value;
  if (!isElement(node)) return '';
  if (node.tagName === 'br') return '\n';
  return node.children.map(rawText).join('');
}

/** Rows of a table (its own, not a nested table's), cells with their spans. */
export function tableRows(table: HastElement): TableCell[][] {
  const rows: TableCell[][] = [];
  const visit = (node: HastElement, head: boolean): void => {
    for (const c of node.children) {
      if (!isElement(c)) continue;
      if (c.tagName === 'tr') {
        const row: TableCell[] = [];
        for (const cell of c.children) {
          if (!isElement(cell) || (cell.tagName !== 'td' && cell.tagName !== 'th')) continue;
          const span = (v: unknown): number => Math.max(1, Math.min(1000, Number.isInteger(Number(v)) ? Number(v) : 1));
          row.push({
            text: plainText(cell).replace(/\s+/g, ' ').trim(),
            rowspan: span(cell.properties['rowSpan']),
            colspan: span(cell.properties['colSpan']),
            header: head || cell.tagName === 'th',
          });
        }
        rows.push(row);
      } else if (c.tagName === 'thead') visit(c, true);
      else if (c.tagName === 'tbody' || c.tagName === 'tfoot') visit(c, false);
    }
  };
  visit(table, false);
  return rows;
}
