/**
 * Other XML documents (JATS articles, DocBook, patents, feeds, data exports): titles as headings
 * nested by their sections, paragraphs, lists and XHTML-style tables; any other element that holds
 * text directly is a paragraph. Read with the same safe parser (no DTD, no entities).
 */
import type { Block, ListItem, TableCell } from './blocks.ts';
import type { FormatDocument } from './types.ts';
import { kids, parseXml, textOf, type XmlElement } from './xml.ts';

const TITLES = new Set(['title', 'article-title', 'heading', 'head', 'subtitle', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'invention-title']);
const SECTIONS = new Set([
  'sec',
  'section',
  'chapter',
  'part',
  'article',
  'body',
  'abstract',
  'appendix',
  'sect1',
  'sect2',
  'sect3',
  'div',
  'claims',
  'description',
]);
const PARAGRAPHS = new Set(['p', 'para', 'paragraph', 'simpara', 'claim-text', 'caption', 'note']);
const LISTS = new Set(['list', 'itemizedlist', 'orderedlist', 'ul', 'ol']);
const SKIPPED = new Set(['style', 'script', 'ref-list', 'back', 'processing-instruction', 'graphic', 'inline-graphic', 'xref-list']);

const clean = (text: string): string => text.replace(/\s+/g, ' ').trim();

function hasElementChildren(node: XmlElement): boolean {
  return node.children.some((c) => typeof c !== 'string');
}

function table(node: XmlElement): Block {
  const rows: TableCell[][] = [];
  const visit = (n: XmlElement, head: boolean): void => {
    for (const c of kids(n)) {
      if (c.local === 'tr' || c.local === 'row') {
        rows.push(
          kids(c)
            .filter((cell) => cell.local === 'td' || cell.local === 'th' || cell.local === 'entry')
            .map((cell) => ({
              text: clean(textOf(cell)),
              rowspan: Number(cell.attrs['rowspan'] ?? 1) || 1,
              colspan: Number(cell.attrs['colspan'] ?? 1) || 1,
              header: head || cell.local === 'th',
            })),
        );
      } else visit(c, head || c.local === 'thead');
    }
  };
  visit(node, false);
  return { kind: 'table', rows };
}

function walk(node: XmlElement, level: number, out: Block[], depth: number): void {
  if (depth > 128) return;
  for (const c of kids(node)) {
    if (SKIPPED.has(c.local)) continue;
    if (TITLES.has(c.local)) {
      const text = clean(textOf(c));
      if (text !== '') out.push({ kind: 'heading', level: Math.min(6, Math.max(1, level)), spans: [{ text }] });
    } else if (SECTIONS.has(c.local)) walk(c, level + 1, out, depth + 1);
    else if (c.local === 'table' || c.local === 'tgroup') out.push(table(c));
    else if (LISTS.has(c.local)) {
      const items: ListItem[] = kids(c).map((item) => ({
        spans: [{ text: clean(textOf(item)) }],
        level: 0,
        ordered: c.local === 'orderedlist' || c.local === 'ol',
      }));
      const kept = items.filter((i) => i.spans[0]!.text !== '');
      if (kept.length > 0) out.push({ kind: 'list', items: kept });
    } else if (PARAGRAPHS.has(c.local) || !hasElementChildren(c)) {
      const text = clean(textOf(c));
      if (text !== '') out.push({ kind: 'paragraph', spans: [{ text }] });
    } else walk(c, level, out, depth + 1);
  }
}

/**
 * @example
 * readXmlDocument(new TextEncoder().encode('<article><title>T</title><p>Text</p></article>'))
 */
export function readXmlDocument(bytes: Uint8Array): FormatDocument {
  const root = parseXml(new TextDecoder('utf-8').decode(bytes), 'document.xml');
  const blocks: Block[] = [];
  walk({ name: '#root', local: '#root', attrs: {}, children: [root] }, 0, blocks, 0);
  // Section depth says which heading is inside which, not how deep: levels close up to 1, 2, 3, …
  const levels = [...new Set(blocks.flatMap((b) => (b.kind === 'heading' ? [b.level] : [])))].sort((a, b) => a - b);
  const settled = blocks.map((b) => (b.kind === 'heading' ? { ...b, level: Math.min(6, levels.indexOf(b.level) + 1) } : b));
  return { format: 'xml', pages: [{ blocks: settled }] };
}
