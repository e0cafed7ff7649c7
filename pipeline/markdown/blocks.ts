import { htmlBlockNames } from 'micromark-util-html-tag-name';
import type { InlineMathSpan } from './math.ts';

/**
 * The fast path. micromark costs about 1 µs per character plus 0.3 ms per call, which alone would
 * cap a page of OCR output near 300 pages/s. Most blocks OCR engines write are plain: a paragraph
 * of words with inline formulas, an ATX heading, an HTML table. Those have one possible reading, so
 * they are taken here; everything else (lists, emphasis, links, pipe tables, code, anything with a
 * character Markdown gives meaning to) goes to remark in one call. A test checks both paths agree.
 */

/** A run of non-blank lines: [start, end) in the prepared page text. */
export type Block =
  | { readonly type: 'paragraph'; readonly start: number; readonly end: number }
  | { readonly type: 'heading'; readonly start: number; readonly end: number; readonly depth: number; readonly contentStart: number }
  | { readonly type: 'html'; readonly start: number; readonly end: number }
  | { readonly type: 'complex'; readonly start: number; readonly end: number };

// Outside formulas, any of these may start inline syntax (emphasis, code, links, HTML, entities,
// escapes, tables, math, strikethrough, footnotes).
const special = /[\\`*_[\]<>&!~|$#]/u;
// Lines that start (or interrupt) another construct, or underline a setext heading.
const blockStart = /^(?: {0,3}(?:[-+*](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|>|#|=+[ \t]*$|(?:-[ \t]*){3,}$|-+[ \t]*$|```|~~~|\$\$)| {4}| {0,3}\t)/mu;
const atxHeading = /^ {0,3}(#{1,6})[ \t]+(?=\S)/u;
const htmlNames = new Set(htmlBlockNames);
const htmlStart = /^ {0,3}<\/?([A-Za-z][A-Za-z0-9-]*)(?=[\s/>]|$)/u;
const rawHtmlStart = /^ {0,3}<(?:script|pre|style|textarea|!--|\?|![A-Za-z]|!\[CDATA\[)/iu;
const fenceStart = /^ {0,3}(`{3,}|~{3,})/u;

/**
 * Cut the prepared text into blocks at blank lines and classify each. Fenced code and raw HTML
 * (`<pre>`, comments) run past blank lines, so they stay in one complex block.
 */
export function splitBlocks(text: string, inline: readonly InlineMathSpan[]): Block[] {
  const blocks: Block[] = [];
  let offset = 0;
  let blockStartAt = -1;
  let open: RegExp | undefined;
  let complex = false;
  const close = (end: number): void => {
    if (blockStartAt === -1) return;
    blocks.push(complex ? { type: 'complex', start: blockStartAt, end } : classify(text, blockStartAt, end, inline));
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

function classify(text: string, start: number, end: number, inline: readonly InlineMathSpan[]): Block {
  const block = text.slice(start, end);
  const html = htmlStart.exec(block);
  if (html && htmlNames.has(html[1]!.toLowerCase())) return { type: 'html', start, end };
  const heading = atxHeading.exec(block);
  if (heading && !block.includes('\n')) {
    const contentStart = start + heading[0].length;
    if (plainOutsideMath(text, contentStart, end, inline)) return { type: 'heading', start, end, depth: heading[1]!.length, contentStart };
    return { type: 'complex', start, end };
  }
  if (blockStart.test(block)) return { type: 'complex', start, end };
  return plainOutsideMath(text, start, end, inline) ? { type: 'paragraph', start, end } : { type: 'complex', start, end };
}

/** No special character in [start, end) outside the rewritten inline formulas. */
function plainOutsideMath(text: string, start: number, end: number, inline: readonly InlineMathSpan[]): boolean {
  let cursor = start;
  for (const span of inline) {
    if (span.end <= start) continue;
    if (span.start >= end) break;
    // A formula crossing the block edge is not one the fast path can read.
    if (span.start < start || span.end > end) return false;
    if (special.test(text.slice(cursor, span.start))) return false;
    cursor = span.end;
  }
  return !special.test(text.slice(cursor, end));
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
