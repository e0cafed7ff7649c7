/**
 * A crawled HTML page as Folio reads it: its main content as Markdown (headings, paragraphs,
 * lists, code, tables kept as HTML for the table reader), and what a crawler needs from it (title,
 * canonical URL, links, robots directives). Scripts, styles and navigation are left out. Parsed by
 * parse5 (under rehype-parse), which repairs any HTML the way browsers do; nothing it refers to is
 * fetched.
 */
import type { Element, ElementContent, Root, RootContent } from 'hast';
import { canonicalUrl } from './crawl-url.ts';

export interface HtmlPage {
  readonly title: string | undefined;
  /** `<link rel="canonical">` resolved against the page, when it has a usable one. */
  readonly canonical: string | undefined;
  /** Links of `<a href>`, resolved and canonical, in document order, without duplicates; `nofollow` ones left out. */
  readonly links: readonly string[];
  /** `<meta name="robots" content="noindex">`: read the links, do not ingest the page. */
  readonly noindex: boolean;
  /** `<meta name="robots" content="nofollow">`: ingest the page, follow none of its links. */
  readonly nofollow: boolean;
  readonly markdown: string;
}

/** Never content: left out with everything inside. */
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'head', 'nav', 'form', 'button', 'select', 'svg', 'iframe', 'object', 'canvas', 'dialog']);
/** Page furniture, left out unless the page has no `<main>` or `<article>` to read instead. */
const FURNITURE = new Set(['header', 'footer', 'aside']);
const HEADINGS: Readonly<Record<string, number>> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'aside',
  'figure',
  'figcaption',
  'address',
  'details',
  'summary',
  'dl',
  'dt',
  'dd',
  'center',
  'hr',
]);

/**
 * @example
 * const page = await readHtmlPage('<title>T</title><h1>Hi</h1><a href="/b">b</a>', 'https://a.org/');
 * page.markdown // '# Hi'
 */
export async function readHtmlPage(html: string, url: string): Promise<HtmlPage> {
  const [{ unified }, { default: rehypeParse }, { toHtml }] = await Promise.all([import('unified'), import('rehype-parse'), import('hast-util-to-html')]);
  const root = unified().use(rehypeParse).parse(html) as Root;
  let base = url;
  let title: string | undefined;
  let canonical: string | undefined;
  let robots = '';
  const links: string[] = [];
  const seen = new Set<string>();
  let main: Element | undefined;
  const articles: Element[] = [];
  visit(root, (node) => {
    const tag = node.tagName;
    const props = node.properties ?? {};
    if (tag === 'base' && typeof props['href'] === 'string') base = canonicalUrl(props['href'], url) ?? base;
    else if (tag === 'title' && title === undefined) title = collapse(textOf(node)) || undefined;
    else if (tag === 'link' && relOf(props).includes('canonical') && typeof props['href'] === 'string') canonical ??= canonicalUrl(props['href'], base);
    else if (tag === 'meta' && String(props['name'] ?? '').toLowerCase() === 'robots') robots += ` ${String(props['content'] ?? '').toLowerCase()}`;
    else if (tag === 'a' && typeof props['href'] === 'string' && !relOf(props).includes('nofollow')) {
      const link = canonicalUrl(props['href'], base);
      if (link !== undefined && !seen.has(link)) {
        seen.add(link);
        links.push(link);
      }
    } else if (tag === 'main' && main === undefined) main = node;
    else if (tag === 'article') articles.push(node);
  });
  // One article is the page's content; several (a blog's index) are read with the rest of the body.
  if (main === undefined && articles.length === 1) main = articles[0];
  const out: string[] = [];
  const body = main ?? root;
  renderBlocks(body.children, { out, furniture: main === undefined, toHtml: (node) => toHtml(node) });
  const markdown = out.join('\n\n').trim();
  return {
    title,
    canonical,
    links,
    noindex: /\b(noindex|none)\b/.test(robots),
    nofollow: /\b(nofollow|none)\b/.test(robots),
    markdown: title !== undefined && !/^# /.test(markdown) ? `# ${escapeLine(title)}\n\n${markdown}`.trim() : markdown,
  };
}

function relOf(props: Readonly<Record<string, unknown>>): string[] {
  const rel = props['rel'];
  return (Array.isArray(rel) ? rel.map(String) : typeof rel === 'string' ? rel.split(/\s+/) : []).map((value) => value.toLowerCase());
}

function visit(node: Root | Element, onElement: (element: Element) => void): void {
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    onElement(child);
    if (child.tagName !== 'script' && child.tagName !== 'style') visit(child, onElement);
  }
}

interface RenderContext {
  readonly out: string[];
  /** Leave out header, footer and aside (no `<main>` was found). */
  readonly furniture: boolean;
  readonly toHtml: (node: Element) => string;
}

/** Blocks of `nodes`: runs of inline content become paragraphs, block elements their own Markdown. */
function renderBlocks(nodes: readonly (RootContent | ElementContent)[], context: RenderContext, indent = ''): void {
  let inline = '';
  const flush = (): void => {
    const text = collapse(inline);
    if (text !== '') context.out.push(indent + escapeLine(text));
    inline = '';
  };
  for (const node of nodes) {
    if (node.type === 'text') {
      inline += node.value;
      continue;
    }
    if (node.type !== 'element') continue;
    const tag = node.tagName;
    if (SKIPPED.has(tag) || (context.furniture && FURNITURE.has(tag))) continue;
    if (tag === 'br') {
      inline += '\n';
      continue;
    }
    const level = HEADINGS[tag];
    if (level !== undefined) {
      flush();
      const text = collapse(textOf(node));
      if (text !== '') context.out.push(`${'#'.repeat(level)} ${text}`);
    } else if (tag === 'ul' || tag === 'ol') {
      flush();
      const items = node.children.filter((child): child is Element => child.type === 'element' && child.tagName === 'li');
      const lines = items.map((item, i) => `${indent}${tag === 'ol' ? `${i + 1}.` : '-'} ${escapeLine(collapse(textOf(item)))}`);
      if (lines.length > 0) context.out.push(lines.join('\n'));
    } else if (tag === 'pre') {
      flush();
      context.out.push(`\`\`\`\n${textOf(node).replace(/\n$/, '').replace(/```/g, '`​``')}\n\`\`\``);
    } else if (tag === 'table') {
      flush();
      context.out.push(context.toHtml(node));
    } else if (tag === 'blockquote') {
      flush();
      const inner: string[] = [];
      renderBlocks(node.children, { ...context, out: inner });
      if (inner.length > 0) context.out.push(inner.map((block) => block.replace(/^/gm, '> ')).join('\n>\n'));
    } else if (BLOCKS.has(tag) || tag === 'li' || tag === 'body' || tag === 'html') {
      flush();
      renderBlocks(node.children, context, indent);
    } else if (tag !== 'img') {
      inline += textOf(node);
    }
  }
  flush();
}

function textOf(node: Element | ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type !== 'element' || SKIPPED.has(node.tagName)) return '';
  if (node.tagName === 'br') return '\n';
  return node.children.map(textOf).join('');
}

function collapse(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\f\r\u00a0]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

/** Text that would read as Markdown syntax (a heading, a list, a quote, raw HTML) is escaped. */
function escapeLine(text: string): string {
  return text
    .replace(/</g, '&lt;')
    .replace(/^(\s*)([#>+*-]|\d+[.)])(\s)/gm, '$1\\$2$3')
    .replace(/\n/g, '  \n');
}
