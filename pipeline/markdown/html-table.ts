import type { SourceCell, SourceRow } from './table.ts';
import { collapseSpaces } from './text.ts';

/**
 * The fast path for an HTML block that is exactly one well-formed table, as OCR engines write
 * them: parse5 and hast cost about as much as the rest of a page together. Anything a browser would
 * repair (a missing close tag, text outside cells, an unknown tag or entity) returns undefined and
 * goes to rehype-parse. A property test checks both readers agree.
 */
export function readSimpleTable(html: string): SourceRow[] | undefined {
  const source = html.trim();
  if (!/^<table[\s>]/iu.test(source) || !/<\/table\s*>$/iu.test(source)) return undefined;
  const rows: SourceRow[] = [];
  const stack: string[] = [];
  let cells: SourceCell[] | undefined;
  let cell: { text: string; rowspan: number; colspan: number; header: boolean } | undefined;
  let head = false;
  let cursor = 0;
  tag.lastIndex = 0;
  for (let match = tag.exec(source); match !== null; match = tag.exec(source)) {
    const between = source.slice(cursor, match.index);
    cursor = match.index + match[0].length;
    if (between !== '') {
      const text = decode(between);
      if (text === undefined) return undefined;
      if (cell) cell.text += text;
      else if (text.trim() !== '') return undefined;
    }
    const closing = match[1] === '/';
    const name = match[2]!.toLowerCase();
    const attributes = match[3] ?? '';
    if (closing) {
      if (stack.pop() !== name) return undefined;
      if (name === 'td' || name === 'th') {
        cells!.push({ ...cell!, text: collapseSpaces(cell!.text) });
        cell = undefined;
      } else if (name === 'tr') {
        rows.push({ head, cells: cells! });
        cells = undefined;
      } else if (name === 'thead') head = false;
      continue;
    }
    const parent = stack[stack.length - 1];
    if (name === 'table') {
      if (stack.length > 0) return undefined;
    } else if (name === 'thead' || name === 'tbody' || name === 'tfoot') {
      if (parent !== 'table') return undefined;
      head = name === 'thead';
    } else if (name === 'tr') {
      if (parent !== 'table' && parent !== 'thead' && parent !== 'tbody' && parent !== 'tfoot') return undefined;
      cells = [];
    } else if (name === 'td' || name === 'th') {
      if (parent !== 'tr') return undefined;
      const spans = readSpans(attributes);
      if (!spans) return undefined;
      cell = { text: '', ...spans, header: name === 'th' };
    } else if (inline.has(name)) {
      if (!cell) return undefined;
      if (name === 'br') {
        cell.text += ' ';
        continue;
      }
    } else return undefined;
    if (match[0].endsWith('/>')) return undefined;
    stack.push(name);
  }
  if (stack.length > 0 || cursor !== source.length) return undefined;
  return rows;
}

const tag = /<(\/?)([A-Za-z][A-Za-z0-9]*)((?:\s+[^<>]*)?)\s*\/?>/gu;
const inline = new Set(['br', 'b', 'i', 'em', 'strong', 'sup', 'sub', 'span', 'u']);
const attribute = /\s*([A-Za-z-]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+))?/gu;

function readSpans(attributes: string): { rowspan: number; colspan: number } | undefined {
  let rowspan = 1;
  let colspan = 1;
  let consumed = 0;
  attribute.lastIndex = 0;
  for (let match = attribute.exec(attributes); match !== null && match[0] !== ''; match = attribute.exec(attributes)) {
    consumed = match.index + match[0].length;
    const name = match[1]!.toLowerCase();
    if (name !== 'rowspan' && name !== 'colspan') continue;
    const value = (match[2] ?? '').replace(/^["']|["']$/gu, '');
    // Only plain numbers: anything else is parse5's to interpret.
    if (!/^\d{1,6}$/u.test(value)) return undefined;
    if (name === 'rowspan') rowspan = Number(value);
    else colspan = Number(value);
  }
  return attributes.slice(consumed).trim() === '' ? { rowspan, colspan } : undefined;
}

const entities: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Text with the common entities decoded; undefined for any other `&…;` (parse5 knows 2,000 of them). */
function decode(text: string): string | undefined {
  if (!text.includes('&')) return text;
  let unknown = false;
  const out = text.replace(/&(#x[0-9a-fA-F]{1,6}|#\d{1,7}|[A-Za-z][A-Za-z0-9]*);?/gu, (whole, name: string) => {
    if (!whole.endsWith(';')) {
      unknown = true;
      return whole;
    }
    if (name.startsWith('#')) {
      const code = name[1] === 'x' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) || (code >= 0x80 && code <= 0x9f)) unknown = true;
      return unknown ? whole : String.fromCodePoint(code);
    }
    const value = entities[name];
    if (value === undefined) unknown = true;
    return value ?? whole;
  });
  return unknown ? undefined : out;
}
