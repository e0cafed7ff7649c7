/**
 * HTML and XHTML: the main content (navigation, scripts, forms and hidden parts dropped; `<main>`
 * when the page marks one), headings, paragraphs with emphasis and links, nested lists,
 * description lists, tables with rowspan/colspan, `<pre>` as code, images by their alt text.
 * Nothing a page links to is fetched.
 */
import type { Element as HastElement, RootContent as HastNode, Root as HastRoot } from 'hast';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import type { Block, ListItem, Span, TableCell } from './blocks.ts';
import { isBlank } from './blocks.ts';
import { isDisplayMath, mathmlToLatex } from './mathml.ts';
import type { FormatDocument } from './types.ts';

const DROPPED = new Set([
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
const BOILERPLATE_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'search', 'complementary', 'menu', 'menubar']);
const BLOCKS = new Set([
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

function isElement(node: HastNode | HastRoot): node is HastElement {
  return node.type === 'element';
}

function dropped(node: HastElement): boolean {
  if (DROPPED.has(node.tagName)) return true;
  const p = node.properties;
  if (p['hidden'] !== undefined && p['hidden'] !== false) return true;
  if (String(p['ariaHidden']) === 'true') return true;
  if (typeof p['role'] === 'string' && BOILERPLATE_ROLES.has(p['role'])) return true;
  if (typeof p['style'] === 'string' && /display\s*:\s*none/i.test(p['style'])) return true;
  // A page footer or a header holding the site navigation is boilerplate; an article's own header is not.
  return (node.tagName === 'footer' || node.tagName === 'header') && hasDescendant(node, 'nav');
}

function hasDescendant(node: HastElement, tag: string): boolean {
  return node.children.some((c) => isElement(c) && (c.tagName === tag || hasDescendant(c, tag)));
}

function findAll(node: HastElement | HastRoot, test: (e: HastElement) => boolean, out: HastElement[] = []): HastElement[] {
  for (const c of node.children) {
    if (!isElement(c)) continue;
    if (test(c)) out.push(c);
    else findAll(c, test, out);
  }
  return out;
}

interface Format {
  readonly bold?: boolean;
  readonly italic?: boolean;
  readonly code?: boolean;
  readonly href?: string;
}

/** Plain text of a subtree, whitespace collapsed, blocks and cells separated by a space. */
function plainText(node: HastNode): string {
  if (node.type === 'text') return node.value;
  if (!isElement(node) || dropped(node)) return '';
  if (node.tagName === 'br') return ' ';
  if (node.tagName === 'img') return typeof node.properties['alt'] === 'string' ? ` ${node.properties['alt']} ` : '';
  const inner = node.children.map(plainText).join('');
  return BLOCKS.has(node.tagName) || node.tagName === 'td' || node.tagName === 'th' ? ` ${inner} ` : inner;
}

class HtmlReader {
  readonly out: Block[] = [];
  #spans: Span[] = [];
  #depth = 0;

  flush(): void {
    if (!isBlank(this.#spans)) this.out.push({ kind: 'paragraph', spans: this.#spans });
    this.#spans = [];
  }

  /** Walk children: inline content gathers into the current paragraph, blocks flush it. */
  walk(node: HastElement | HastRoot, format: Format): void {
    if (this.#depth > 256) return;
    this.#depth++;
    for (const child of node.children) {
      if (child.type === 'text') this.#spans.push({ text: child.value.replace(/\s+/g, ' '), ...format });
      else if (isElement(child) && !dropped(child)) this.#element(child, format);
    }
    this.#depth--;
  }

  #element(node: HastElement, format: Format): void {
    const tag = node.tagName;
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) {
      this.flush();
      const spans = inlineSpans(node, {});
      if (!isBlank(spans)) this.out.push({ kind: 'heading', level: Number(heading[1]), spans });
      return;
    }
    switch (tag) {
      case 'ul':
      case 'ol':
      case 'dl': {
        this.flush();
        const items: ListItem[] = [];
        listItems(node, 0, items);
        if (items.length > 0) this.out.push({ kind: 'list', items });
        return;
      }
      case 'table': {
        this.flush();
        const rows = tableRows(node);
        // A table of one cell is a layout frame (mail templates, old sites): its content is read as blocks.
        if (rows.length === 1 && rows[0]!.length === 1) {
          const cell = findAll(node, (e) => e.tagName === 'td' || e.tagName === 'th')[0];
          if (cell) this.walk(cell, format);
          this.flush();
        } else this.out.push({ kind: 'table', rows });
        return;
      }
      case 'pre':
        this.flush();
        this.out.push({ kind: 'code', text: rawText(node) });
        return;
      case 'blockquote': {
        this.flush();
        const inner = new HtmlReader();
        inner.walk(node, format);
        inner.flush();
        this.out.push(...inner.out);
        return;
      }
      case 'img': {
        const alt = typeof node.properties['alt'] === 'string' ? node.properties['alt'] : '';
        this.flush();
        this.out.push({ kind: 'figure', alt });
        return;
      }
      case 'br':
        this.#spans.push({ text: ' ', ...format });
        return;
      case 'math': {
        const latex = mathmlToLatex(node);
        if (latex === '') return;
        if (isDisplayMath(node)) {
          this.flush();
          this.out.push({ kind: 'formula', latex });
        } else this.#spans.push({ text: latex, math: true });
        return;
      }
      case 'hr':
        this.flush();
        return;
      default:
        break;
    }
    if (BLOCKS.has(tag)) {
      this.flush();
      this.walk(node, format);
      this.flush();
      return;
    }
    this.walk(node, inlineFormat(node, format));
  }

  get spans(): Span[] {
    return this.#spans;
  }
}

function inlineFormat(node: HastElement, format: Format): Format {
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
function inlineSpans(node: HastElement, format: Format, skip?: (e: HastElement) => boolean): Span[] {
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

const isList = (e: HastElement): boolean => e.tagName === 'ul' || e.tagName === 'ol' || e.tagName === 'dl';

function listItems(list: HastElement, level: number, items: ListItem[]): void {
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

function rawText(node: HastNode): string {
  if (node.type === 'text') return node.value;
  if (!isElement(node)) return '';
  if (node.tagName === 'br') return '\n';
  return node.children.map(rawText).join('');
}

/** Rows of a table (its own, not a nested table's), cells with their spans. */
function tableRows(table: HastElement): TableCell[][] {
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

/**
 * Blocks of an HTML document (or fragment).
 *
 * @example
 * htmlBlocks('<h1>Title</h1><p>Some <b>bold</b> text.</p>')
 */
export function htmlBlocks(html: string): Block[] {
  const tree = unified().use(rehypeParse).parse(html) as HastRoot;
  const mains = findAll(tree, (e) => e.tagName === 'main' || e.properties['role'] === 'main');
  const reader = new HtmlReader();
  if (mains.length === 1) reader.walk(mains[0]!, {});
  else reader.walk(tree, {});
  reader.flush();
  return reader.out;
}

/** Read an HTML page as one page of blocks; the `<title>` goes to the metadata. */
export function readHtml(bytes: Uint8Array): FormatDocument {
  const html = decodeHtml(bytes);
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1]?.trim();
  return { format: 'html', pages: [{ blocks: htmlBlocks(html) }], ...(title ? { metadata: { title } } : {}) };
}

/** The page's text: UTF-8 unless a BOM or `<meta charset>` says otherwise (latin-1 pages are still common). */
export function decodeHtml(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 2048));
  const charset = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}
