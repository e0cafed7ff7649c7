import { htmlBlockNames } from 'micromark-util-html-tag-name';
import type { InlineMathSpan } from './math.ts';

/**
 * The fast path. micromark costs about 1 µs per character plus 0.3 ms per call, which alone would
 * cap a page of OCR output near 300 pages/s. Most blocks OCR engines and the text layer write are
 * plain: a paragraph of words with inline formulas and citations (`[12]`, `a < b`, `\$5`), an ATX
 * heading, an HTML table, a one-line list item, a fenced code block. Those have one possible
 * reading, so they are taken here (lists are put together in fast-lists.ts); everything else
 * (emphasis, links, pipe tables, nested lists, anything else with a character Markdown gives
 * meaning to) goes to remark in one call. A property test checks both paths agree.
 */

/** A run of non-blank lines: [start, end) in the prepared page text. */
export type Block =
  | { readonly type: 'paragraph'; readonly start: number; readonly end: number }
  | { readonly type: 'heading'; readonly start: number; readonly end: number; readonly depth: number; readonly contentStart: number }
  | { readonly type: 'html'; readonly start: number; readonly end: number }
  /** A one-line list item of plain text (`- words`, `3. words`); consecutive ones of one kind make one list. */
  | { readonly type: 'item'; readonly start: number; readonly end: number; readonly kind: string; readonly number?: number; readonly contentStart: number }
  /** A fenced code block, fences at the margin, nothing after the closing fence. */
  | { readonly type: 'code'; readonly start: number; readonly end: number; readonly info: string; readonly value: string }
  | { readonly type: 'complex'; readonly start: number; readonly end: number };

// Outside formulas, any of these may start inline syntax (emphasis, code, links, HTML, entities,
// escapes, tables, math, strikethrough, footnotes).
const special = /[\\`*_[\]<>&!~|$#\u0000]/u;
// Lines that start (or interrupt) another construct, or underline a setext heading.
const blockStart = /^(?: {0,3}(?:[-+*](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|>|#|=+[ \t]*$|(?:-[ \t]*){3,}$|-+[ \t]*$|```|~~~|\$\$)| {4}| {0,3}\t)/mu;
const atxHeading = /^ {0,3}(#{1,6})[ \t]+(?=\S)/u;
const htmlNames = new Set(htmlBlockNames);
const htmlStart = /^ {0,3}<\/?([A-Za-z][A-Za-z0-9-]*)(?=[\s/>]|$)/u;
const rawHtmlStart = /^ {0,3}<(?:script|pre|style|textarea|!--|\?|![A-Za-z]|!\[CDATA\[)/iu;
const fenceStart = /^ {0,3}(`{3,}|~{3,})/u;
// A one-line list item: marker at the margin, one space, then the content.
const itemLine = /^(?:([-+*])|(\d{1,9})([.)])) (?=\S)/u;
// Without a definition anywhere on the page (every one has `]:`, footnotes too), references
// (`[a][b]`, `[a]`, `[^1]`) stay plain text: only an inline link or image (`](`) is syntax.
const bracketSyntax = /\]\(/u;
const definition = /\]:/u;
// Backslash escapes of ASCII punctuation and the entities text-layer pages write: plain text once
// decoded (see `decodeInline`).
const escapesAndEntities = /\\[!-/:-@[-`{-~]|&(?:amp|lt|gt|quot);/gu;
const fenceOpen = /^(`{3,}|~{3,})([^\n]*)$/u;

/**
 * Cut the prepared text into blocks at blank lines and classify each. Fenced code and raw HTML
 * (`<pre>`, comments) run past blank lines, so they stay in one complex block.
 */
export function splitBlocks(text: string, inline: readonly InlineMathSpan[]): Block[] {
  const blocks: Block[] = [];
  // A page with a link reference definition anywhere can turn any `[label]` into a link.
  const plain = definition.test(text) ? special : specialOrBracket;
  let offset = 0;
  let blockStartAt = -1;
  let open: RegExp | undefined;
  let complex = false;
  const close = (end: number): void => {
    if (blockStartAt === -1) return;
    blocks.push(complex ? fenced(text, blockStartAt, end) : classify(text, blockStartAt, end, inline, plain));
    blockStartAt = -1;
    complex = false;
  };
  while (offset <= text.length) {
    let lineEnd = text.indexOf('\n', offset);
    if (lineEnd === -1) lineEnd = text.length;
    const line = text.slice(offset, lineEnd);
    if (open) {
      // Inside fenced code or raw HTML: blank lines do not end the block.
      if (open.test(line)) open = undefined;
    } else if (/^[ \t]*$/u.test(line)) {
      // The block ends before the newline that ends its last line.
      close(Math.max(blockStartAt, offset - 1));
    } else {
      if (blockStartAt === -1) blockStartAt = offset;
      const fence = fenceStart.exec(line);
      if (fence) {
        complex = true;
        const marker = fence[1]!;
        const rest = line.slice(fence[0].length);
        if (!(marker[0] === '`' && rest.includes('`'))) open = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`, 'u');
      } else if (rawHtmlStart.test(line)) {
        complex = true;
        const end = rawEnd(line);
        if (end && !end.test(line.slice(line.indexOf('<') + 2))) open = end;
      }
    }
    if (lineEnd === text.length) break;
    offset = lineEnd + 1;
  }
  if (!open) close(text.length);
  else if (blockStartAt !== -1) blocks.push({ type: 'complex', start: blockStartAt, end: text.length });
  return blocks;
}

function rawEnd(line: string): RegExp | undefined {
  const lower = line.trimStart().toLowerCase();
  if (lower.startsWith('<!--')) return /-->/u;
  if (lower.startsWith('<?')) return /\?>/u;
  if (lower.startsWith('<![cdata[')) return /\]\]>/u;
  if (lower.startsWith('<!')) return />/u;
  const name = /^<(script|pre|style|textarea)/u.exec(lower)?.[1];
  return name ? new RegExp(`</${name}>`, 'iu') : undefined;
}

function classify(text: string, start: number, end: number, inline: readonly InlineMathSpan[], plain: Plain): Block {
  const block = text.slice(start, end);
  const html = htmlStart.exec(block);
  if (html && htmlNames.has(html[1]!.toLowerCase())) return { type: 'html', start, end };
  const heading = atxHeading.exec(block);
  if (heading && !block.includes('\n')) {
    const contentStart = start + heading[0].length;
    if (plainOutsideMath(text, contentStart, end, inline, plain)) return { type: 'heading', start, end, depth: heading[1]!.length, contentStart };
    return { type: 'complex', start, end };
  }
  const item = itemLine.exec(block);
  if (item && !block.includes('\n')) {
    const contentStart = start + item[0].length;
    const content = text.slice(contentStart, end);
    // The content must not open a construct of its own (`- - x` nests a list, `1. # x` a heading)
    // and carries no formula, so its text is the words as they stand.
    if (!blockStart.test(content) && !itemLine.test(content) && !touchesMath(start, end, inline) && !plain.test(content)) {
      const kind = item[1] ?? item[3]!;
      return item[2] === undefined
        ? { type: 'item', start, end, kind, contentStart }
        : { type: 'item', start, end, kind, number: Number(item[2]), contentStart };
    }
    return { type: 'complex', start, end };
  }
  if (blockStart.test(block)) return { type: 'complex', start, end };
  return plainOutsideMath(text, start, end, inline, plain) ? { type: 'paragraph', start, end } : { type: 'complex', start, end };
}

/** Tests text for characters that may start inline syntax. */
interface Plain {
  test(text: string): boolean;
}

/**
 * Text as remark gives it for a block the fast path takes: backslash escapes and the entities
 * `specialOrBracket` lets through decoded (an escape goes first: `\&lt;` is `&lt;`).
 */
export function decodeInline(text: string): string {
  if (!text.includes('\\') && !text.includes('&')) return text;
  return text.replace(escapesAndEntities, (match) => (match[0] === '\\' ? match.slice(1) : (ENTITIES[match] ?? match)));
}

const ENTITIES: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"' };

/**
 * The special characters that are plain text where they stand: brackets that cannot make a link,
 * image, footnote or definition (the page has no definitions), `!` not before `[`, `>` inside a
 * line (a quote needs it at the start, which `blockStart` catches), `&` that starts no character
 * reference, `<` that starts no tag or autolink, `#` inside a line and not closing a heading,
 * backslash escapes and the entities `&amp;`, `&lt;`, `&gt;`, `&quot;` (decoded by `decodeInline`).
 * Text-layer pages are full of `[12]` citations and `a < b`; remark need not read those.
 */
const specialOrBracket: Plain = {
  test(text: string): boolean {
    if (!special.test(text)) return false;
    let rest = text.replace(escapesAndEntities, '');
    if (rest.includes('[') || rest.includes(']')) {
      if (bracketSyntax.test(rest)) return true;
      rest = rest.replace(/[[\]]/gu, '');
    }
    // Each test reads the text as written, so the order matters (`<!--` is a comment).
    rest = rest
      .replace(/<(?![A-Za-z/!?])/gu, '')
      .replace(/&(?!#\d{1,7};|#[xX][\da-fA-F]{1,6};|[A-Za-z][A-Za-z\d]{1,31};)/gu, '')
      .replace(/!(?!\[)/gu, '')
      .replace(/>/gu, '')
      .replace(/#+(?=[ \t]*[^\s#])/gu, '');
    return special.test(rest);
  },
};

function touchesMath(start: number, end: number, inline: readonly InlineMathSpan[]): boolean {
  return inline.some((span) => span.start < end && span.end > start);
}

/** No special character in [start, end) outside the rewritten inline formulas. */
function plainOutsideMath(text: string, start: number, end: number, inline: readonly InlineMathSpan[], plain: Plain = special): boolean {
  let cursor = start;
  for (const span of inline) {
    if (span.end <= start) continue;
    if (span.start >= end) break;
    // A formula crossing the block edge is not one the fast path can read.
    if (span.start < start || span.end > end) return false;
    if (plain.test(text.slice(cursor, span.start))) return false;
    cursor = span.end;
  }
  return !plain.test(text.slice(cursor, end));
}

/**
 * A complex block that is one fenced code block and nothing else: opening fence at the margin
 * with a plain info string, a closing fence of the same kind as its last line and none before.
 */
function fenced(text: string, start: number, end: number): Block {
  const complex: Block = { type: 'complex', start, end };
  const lines = text.slice(start, end).split('\n');
  if (lines.length < 2) return complex;
  const open = fenceOpen.exec(lines[0]!);
  if (!open) return complex;
  const marker = open[1]!;
  const info = open[2]!.trim();
  // Escapes, entities and backticks in the info string are left to remark.
  if (!/^[\w+.#-]*$/u.test(info)) return complex;
  const closing = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \t]*$`, 'u');
  const last = lines.length - 1;
  if (!/^[`~]/u.test(lines[last]!) || !closing.test(lines[last]!)) return complex;
  for (let i = 1; i < last; i++) if (closing.test(lines[i]!)) return complex;
  return { type: 'code', start, end, info, value: lines.slice(1, last).join('\n') };
}

/** Complex blocks joined into one string for remark, and the way back to page offsets. */
export interface Segments {
  readonly text: string;
  /** Map an offset in `text` back to the page text. */
  readonly toPage: (offset: number) => number;
}

// Non-adjacent complex runs are kept apart by an HTML comment, so two lists cut apart by a
// paragraph the fast path took do not join into one list.
export const separator = '\n\n<!---->\n\n';

/** Join complex blocks (consecutive ones with the text between them) for one remark call. */
export function joinComplex(text: string, blocks: readonly Block[]): Segments {
  const runs: { start: number; end: number }[] = [];
  let previousComplex = false;
  for (const block of blocks) {
    if (block.type === 'complex') {
      const last = runs[runs.length - 1];
      if (previousComplex && last) last.end = block.end;
      else runs.push({ start: block.start, end: block.end });
    }
    previousComplex = block.type === 'complex';
  }
  const parts: string[] = [];
  const map: { out: number; page: number; length: number }[] = [];
  let out = 0;
  runs.forEach((run, i) => {
    if (i > 0) {
      parts.push(separator);
      out += separator.length;
    }
    map.push({ out, page: run.start, length: run.end - run.start });
    parts.push(text.slice(run.start, run.end));
    out += run.end - run.start;
  });
  const toPage = (offset: number): number => {
    let chosen = map[0];
    for (const entry of map) {
      if (entry.out > offset) break;
      chosen = entry;
    }
    if (!chosen) return offset;
    return chosen.page + Math.min(offset - chosen.out, chosen.length);
  };
  return { text: parts.join(''), toPage };
}
