/**
 * A small, safe XML parser for the parts of Office and OpenDocument files: elements, attributes,
 * text and CDATA. No DTD is ever read: a document type that declares entities is refused (that is
 * how external-entity and billion-laughs attacks arrive), and only the five predefined entities and
 * numeric references are expanded. Bounded in nodes and depth.
 */
import { SourceError } from '../../core/errors.ts';
import { checkDeadline } from './deadline.ts';

export interface XmlElement {
  /** The qualified name as written (`w:p`). */
  readonly name: string;
  /** The name without its prefix (`p`): Office's Transitional and Strict dialects differ only in namespace. */
  readonly local: string;
  /** Attributes by local name (`w:val` → `val`); the qualified names too. */
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: (XmlElement | string)[];
}

export interface XmlLimits {
  /**
   * Most elements and text nodes in one part.
   * @default 5000000
   */
  readonly maxNodes?: number;
  /**
   * Deepest nesting of elements.
   * @default 512
   */
  readonly maxDepth?: number;
}

const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Expand the predefined and numeric entities; any other reference stays as written. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return PREDEFINED[ref] ?? whole;
  });
}

function malformed(part: string, at: number, why: string): SourceError {
  return new SourceError('FOLIO_XML_MALFORMED', `${part}: malformed XML at offset ${at}: ${why}`);
}

const NAME = /[^\s/>=]+/y;
const ATTR = /\s*([^\s/>=]+)\s*=\s*("([^"]*)"|'([^']*)')/y;

/**
 * Parse one XML document into its root element.
 *
 * @example
 * const root = parseXml('<a x="1"><b>hi</b></a>', 'part.xml');
 * root.children[0] // { name: 'b', local: 'b', attrs: {}, children: ['hi'] }
 */
export function parseXml(text: string, part = 'xml', limits: Readonly<XmlLimits> = {}): XmlElement {
  const { maxNodes = 5_000_000, maxDepth = 512 } = limits;
  const root: XmlElement = { name: '#document', local: '#document', attrs: {}, children: [] };
  const stack: XmlElement[] = [root];
  let nodes = 0;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = text.length;
  while (i < n) {
    const lt = text.indexOf('<', i);
    const end = lt < 0 ? n : lt;
    if (end > i) {
      const chunk = text.slice(i, end);
      if (stack.length > 1) stack[stack.length - 1]!.children.push(decodeEntities(chunk));
      else if (chunk.trim() !== '') throw malformed(part, i, 'text outside the root element');
    }
    if (lt < 0) break;
    if (++nodes > maxNodes) throw new SourceError('FOLIO_XML_MALFORMED', `${part}: more than ${maxNodes} XML nodes`);
    if ((nodes & 0xffff) === 0) checkDeadline();
    if (text.startsWith('<!--', lt)) {
      const close = text.indexOf('-->', lt + 4);
      if (close < 0) throw malformed(part, lt, 'unterminated comment');
      i = close + 3;
    } else if (text.startsWith('<![CDATA[', lt)) {
      const close = text.indexOf(']]>', lt + 9);
      if (close < 0) throw malformed(part, lt, 'unterminated CDATA section');
      stack[stack.length - 1]!.children.push(text.slice(lt + 9, close));
      i = close + 3;
    } else if (text.startsWith('<?', lt)) {
      const close = text.indexOf('?>', lt + 2);
      if (close < 0) throw malformed(part, lt, 'unterminated processing instruction');
      i = close + 2;
    } else if (text.startsWith('<!', lt)) {
      i = skipDoctype(text, lt, part);
    } else if (text[lt + 1] === '/') {
      const close = text.indexOf('>', lt);
      if (close < 0) throw malformed(part, lt, 'unterminated end tag');
      const name = text.slice(lt + 2, close).trim();
      const open = stack.pop();
      if (!open || open === root || open.name !== name) throw malformed(part, lt, `</${name}> does not close <${open?.name ?? ''}>`);
      i = close + 1;
    } else {
      NAME.lastIndex = lt + 1;
      const match = NAME.exec(text);
      if (!match) throw malformed(part, lt, 'a tag without a name');
      const name = match[0];
      const attrs: Record<string, string> = {};
      let at = NAME.lastIndex;
      for (;;) {
        ATTR.lastIndex = at;
        const a = ATTR.exec(text);
        if (!a) break;
        const value = decodeEntities(a[3] ?? a[4] ?? '');
        attrs[a[1]!] = value;
        const colon = a[1]!.indexOf(':');
        if (colon >= 0) attrs[a[1]!.slice(colon + 1)] ??= value;
        at = ATTR.lastIndex;
      }
      while (at < n && /\s/.test(text[at]!)) at++;
      const selfClosing = text[at] === '/';
      if (selfClosing) at++;
      if (text[at] !== '>') throw malformed(part, at, `unexpected character in <${name}>`);
      const colon = name.indexOf(':');
      const element: XmlElement = { name, local: colon >= 0 ? name.slice(colon + 1) : name, attrs, children: [] };
      const parent = stack[stack.length - 1]!;
      if (parent === root && root.children.some((c) => typeof c !== 'string')) throw malformed(part, lt, 'a second root element');
      parent.children.push(element);
      if (!selfClosing) {
        if (stack.length > maxDepth) throw new SourceError('FOLIO_XML_MALFORMED', `${part}: XML nested deeper than ${maxDepth}`);
        stack.push(element);
      }
      i = at + 1;
    }
  }
  if (stack.length > 1) throw malformed(part, n, `<${stack[stack.length - 1]!.name}> is never closed (truncated?)`);
  const top = root.children.find((c): c is XmlElement => typeof c !== 'string');
  if (!top) throw malformed(part, 0, 'no root element');
  return top;
}

/** Skip `<!DOCTYPE …>` (with its internal subset); refuse one that declares entities. */
function skipDoctype(text: string, lt: number, part: string): number {
  let depth = 0;
  for (let j = lt + 2; j < text.length; j++) {
    const c = text[j];
    if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (c === '>' && depth <= 0) {
      const declaration = text.slice(lt, j + 1);
      if (/<!ENTITY/i.test(declaration) || /\bSYSTEM\b/.test(declaration)) {
        throw new SourceError('FOLIO_XML_UNSAFE', `${part}: the XML declares entities or an external DTD, which Folio never resolves (refused)`);
      }
      return j + 1;
    }
  }
  throw malformed(part, lt, 'unterminated document type declaration');
}

/** Child elements, optionally only those of one local name. */
export function kids(node: XmlElement | undefined, local?: string): XmlElement[] {
  if (!node) return [];
  const out: XmlElement[] = [];
  for (const c of node.children) if (typeof c !== 'string' && (local === undefined || c.local === local)) out.push(c);
  return out;
}

/** The first child element of a local name. */
export function kid(node: XmlElement | undefined, local: string): XmlElement | undefined {
  if (!node) return undefined;
  for (const c of node.children) if (typeof c !== 'string' && c.local === local) return c;
  return undefined;
}

/** The first descendant (depth first) of a local name. */
export function find(node: XmlElement | undefined, local: string): XmlElement | undefined {
  if (!node) return undefined;
  for (const c of node.children) {
    if (typeof c === 'string') continue;
    if (c.local === local) return c;
    const deeper = find(c, local);
    if (deeper) return deeper;
  }
  return undefined;
}

/** Every descendant of a local name, in document order (not descending into matches). */
export function findAll(node: XmlElement | undefined, local: string, out: XmlElement[] = []): XmlElement[] {
  if (!node) return out;
  for (const c of node.children) {
    if (typeof c === 'string') continue;
    if (c.local === local) out.push(c);
    else findAll(c, local, out);
  }
  return out;
}

/** All text below the node, concatenated. */
export function textOf(node: XmlElement | string | undefined): string {
  if (node === undefined) return '';
  if (typeof node === 'string') return node;
  return node.children.map(textOf).join('');
}

/** An attribute by local name. */
export function attr(node: XmlElement | undefined, local: string): string | undefined {
  return node?.attrs[local];
}

/** The relationship id of a node (`r:id`, whatever the prefix), not a plain `id` attribute beside it. */
export function relId(node: XmlElement | undefined): string | undefined {
  if (!node) return undefined;
  for (const [name, value] of Object.entries(node.attrs)) if (name.endsWith(':id') && name.length > 3) return value;
  return node.attrs['id'];
}
