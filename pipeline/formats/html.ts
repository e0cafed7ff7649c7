/**
 * HTML and XHTML: the main content (navigation, scripts, forms and hidden parts dropped; `<main>`
 * when the page marks one), headings, paragraphs with emphasis and links, nested lists,
 * description lists, tables with rowspan/colspan, `<pre>` as code, images by their alt text.
 * Nothing a page links to is fetched.
 */
import type { Element as HastElement, Root as HastRoot } from 'hast';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import type { Block, ListItem, Span } from './blocks.ts';
import { isBlank } from './blocks.ts';
import { BLOCKS, dropped, type Format, findAll, inlineFormat, inlineSpans, isElement, listItems, rawText, tableRows } from './html-parts.ts';
import { isDisplayMath, mathmlToLatex } from './mathml.ts';
import type { FormatDocument } from './types.ts';

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
        } else {
          // The caption reads before its table, as the PDF path places a table's caption.
          const caption = node.children.find((c): c is HastElement => isElement(c) && c.tagName === 'caption');
          const spans = caption ? inlineSpans(caption, {}) : [];
          if (!isBlank(spans)) this.out.push({ kind: 'paragraph', spans });
          this.out.push({ kind: 'table', rows });
        }
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
