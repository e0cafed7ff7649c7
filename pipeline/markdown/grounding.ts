import { kindOfLabel } from './labels.ts';

/**
 * DeepSeek-OCR grounding tags: `<|ref|>label<|/ref|><|det|>[[x1,y1,x2,y2]]<|/det|>`, coordinates on a
 * 0–999 grid. They are blanked out of the Markdown *in place* (same length, so every offset the
 * Markdown parser reports is still an offset into the page Markdown) and returned as anchors.
 */

/** One grounding anchor found in the page Markdown. */
export interface GroundingTag {
  /** Offsets of the whole tag in the page Markdown: [start, end). */
  readonly start: number;
  readonly end: number;
  readonly label?: string;
  /** Box on the model's grid, x1 ≤ x2 and y1 ≤ y2 (several boxes are united). */
  readonly box?: readonly [number, number, number, number];
  /** Why the tag is not well formed, when it is not. */
  readonly problem?: string;
  /** True when only whitespace separates this tag from the next tag: the model located a region it did not transcribe here. */
  readonly empty: boolean;
}

export interface StrippedMarkdown {
  /** The Markdown with every tag replaced by blanks of the same length. */
  readonly text: string;
  readonly tags: readonly GroundingTag[];
  /** Stray special tokens removed (`<|/det|>` without an opening, `<｜end▁of▁sentence｜>`, …). */
  readonly strays: number;
}

// Any special token, ASCII or full-width bars (DeepSeek's end-of-sentence token uses `｜`).
const specialToken = /<[|｜][^|｜<>\n]{0,48}[|｜]>/gu;
const refOpen = '<|ref|>';
const refClose = '<|/ref|>';
const detOpen = '<|det|>';
const detClose = '<|/det|>';
// A label is short and made of word characters; anything longer is page text that must not be eaten.
const labelPattern = /^[A-Za-z][\w-]{0,39}/u;
// A closed box body: numbers, or anything bracketed (a bad box, still the tag's own).
const boxBody = /^(?:[\s\d.,\-+eE[\]]*|\s*\[[^\n<]*\]\s*)$/u;
const boxPrefix = /^\s*\[?\[?(?:\s*-?\d+(?:\.\d+)?\s*,?)*\]?\]?/u;

/**
 * Find and blank grounding tags. Never throws; a malformed tag keeps every character of page text.
 *
 * @example
 * stripGrounding('<|ref|>text<|/ref|><|det|>[[1,2,3,4]]<|/det|>\nHello').tags[0]?.label // 'text'
 */
export function stripGrounding(markdown: string): StrippedMarkdown {
  if (!markdown.includes('<|') && !markdown.includes('<｜')) return { text: markdown, tags: [], strays: 0 };
  // The parser, the loop scan and the gate all strip the same page: remember the last one.
  if (last && last.markdown === markdown) return last.result;
  const result = strip(markdown);
  last = { markdown, result };
  return result;
}

let last: { markdown: string; result: StrippedMarkdown } | undefined;

function strip(markdown: string): StrippedMarkdown {
  const found: Omit<GroundingTag, 'empty'>[] = [];
  const parts: string[] = [];
  let strays = 0;
  let index = 0;
  let copied = 0;
  // Next occurrences, searched again only once passed: a page of 20,000 unclosed tags stays linear.
  let open = -2;
  let det = -2;
  while (index < markdown.length) {
    if (open !== -1 && open < index) open = markdown.indexOf(refOpen, index);
    if (det !== -1 && det < index) det = markdown.indexOf(detOpen, index);
    let start = open;
    if (start === -1 || (det !== -1 && det < start)) start = det;
    if (start === -1) break;
    const tag = readTag(markdown, start);
    found.push(tag);
    parts.push(markdown.slice(copied, tag.start), blank(markdown.slice(tag.start, tag.end), atLineStart(markdown, tag.start)));
    copied = tag.end;
    index = tag.end;
  }
  parts.push(markdown.slice(copied));
  // Whatever special tokens are left are strays: drop them, they are never page text.
  let text = parts.join('');
  if (text.includes('<|') || text.includes('<｜')) {
    text = text.replace(specialToken, (token) => {
      strays++;
      return ' '.repeat(token.length);
    });
  }
  const tags = found.map((tag, i): GroundingTag => {
    const next = found[i + 1];
    const between = markdown.slice(tag.end, next ? next.start : markdown.length);
    return { ...tag, empty: between.trim() === '' };
  });
  return { text, tags, strays };
}

function readTag(markdown: string, start: number): Omit<GroundingTag, 'empty'> {
  let cursor = start;
  let label: string | undefined;
  const problems: string[] = [];
  if (markdown.startsWith(refOpen, cursor)) {
    cursor += refOpen.length;
    const window = markdown.slice(cursor, cursor + 41 + refClose.length);
    const at = window.indexOf(refClose);
    const closed = at !== -1 && !window.slice(0, at).includes('\n') ? window.slice(0, at).trim() : undefined;
    if (closed !== undefined && (closed === '' || labelPattern.exec(closed)?.[0] === closed)) {
      label = closed || undefined;
      cursor += at + refClose.length;
    } else {
      // Unclosed: take a known label directly followed by another tag; anything else is page text.
      const match = labelPattern.exec(markdown.slice(cursor, cursor + 41));
      if (match && kindOfLabel(match[0]) !== undefined && markdown.startsWith('<|', cursor + match[0].length)) {
        label = match[0];
        cursor += match[0].length;
      }
      problems.push('unclosed <|ref|>');
    }
  }
  let box: [number, number, number, number] | undefined;
  const afterRef = cursor;
  const detAt = skipSpaces(markdown, cursor);
  if (markdown.startsWith(detOpen, detAt)) {
    cursor = detAt + detOpen.length;
    const window = markdown.slice(cursor, cursor + 400 + detClose.length);
    const at = window.indexOf(detClose);
    let body: string;
    if (at !== -1 && !window.slice(0, at).includes('\n') && boxBody.test(window.slice(0, at))) {
      body = window.slice(0, at);
      cursor += at + detClose.length;
    } else {
      // Unclosed, or closed around more than numbers: only the bracketed numbers belong to the tag.
      body = boxPrefix.exec(markdown.slice(cursor, cursor + 400))?.[0] ?? '';
      cursor += body.length;
      problems.push('unclosed <|det|>');
    }
    box = parseBox(body);
    if (!box) problems.push(`bad box ${JSON.stringify(body.slice(0, 60))}`);
  } else {
    cursor = afterRef;
    if (label !== undefined) problems.push('no <|det|> box');
  }
  const result: { start: number; end: number; label?: string; box?: [number, number, number, number]; problem?: string } = {
    start,
    end: Math.max(cursor, start + 1),
  };
  if (label !== undefined) result.label = label;
  if (box) result.box = box;
  if (problems.length > 0) result.problem = problems.join('; ');
  return result;
}

/** Numbers in groups of four; several boxes are united; values clamped to the grid. */
function parseBox(body: string): [number, number, number, number] | undefined {
  const numbers = body.match(/-?\d+(?:\.\d+)?/gu)?.map(Number) ?? [];
  if (numbers.length < 4) return undefined;
  let x1 = Infinity;
  let y1 = Infinity;
  let x2 = -Infinity;
  let y2 = -Infinity;
  for (let i = 0; i + 3 < numbers.length; i += 4) {
    const [a, b, c, d] = numbers.slice(i, i + 4) as [number, number, number, number];
    if (![a, b, c, d].every(Number.isFinite)) continue;
    x1 = Math.min(x1, a, c);
    y1 = Math.min(y1, b, d);
    x2 = Math.max(x2, a, c);
    y2 = Math.max(y2, b, d);
  }
  if (!Number.isFinite(x1)) return undefined;
  const clamp = (v: number): number => Math.min(999, Math.max(0, v));
  return [clamp(x1), clamp(y1), clamp(x2), clamp(y2)];
}

// A tag that starts a line becomes a block break, so the text after it (even on the same line)
// starts a new block; a tag in the middle of a line becomes spaces, so it cannot split a table row.
function blank(tag: string, lineStart: boolean): string {
  const spaces = tag.replace(/[^\n]/gu, ' ');
  return lineStart && tag.length >= 2 && !tag.includes('\n') ? `${spaces.slice(0, -2)}\n\n` : spaces;
}

function atLineStart(text: string, offset: number): boolean {
  for (let i = offset - 1; i >= 0; i--) {
    const c = text[i];
    if (c === '\n') return true;
    if (c !== ' ' && c !== '\t') return false;
  }
  return true;
}

function skipSpaces(text: string, offset: number): number {
  let i = offset;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  return i;
}
