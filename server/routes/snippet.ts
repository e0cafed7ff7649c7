/**
 * A snippet of a hit's text with the query's terms marked. Terms are matched as whole words,
 * case-insensitively, which is what the `standard` analyzer behind BM25 does (no stemming), so a
 * marked word is one that counted for the score.
 */
import type { SnippetPart } from './api-types.ts';

export interface SnippetOptions {
  /** Longest snippet, in characters (an ellipsis marks a cut). @default 320 */
  readonly maxChars?: number;
}

/** Lucene operators and field names that are syntax, not words to find. */
const OPERATORS = new Set(['and', 'or', 'not', 'to']);
const WORD = /[\p{L}\p{N}]+/gu;

/** The words of a query worth marking: lowercased, operators and `field:` prefixes left out. */
export function queryTerms(query: string): Set<string> {
  const terms = new Set<string>();
  for (const part of query.split(/\s+/)) {
    const value = /^[\p{L}_.]+:(.*)$/u.exec(part)?.[1] ?? part;
    for (const [word] of value.matchAll(WORD)) {
      const lower = word.toLowerCase();
      if (!OPERATORS.has(lower) || word !== word.toUpperCase()) terms.add(lower);
    }
  }
  return terms;
}

/**
 * The window of `text` around its first run of matches, split into plain and marked parts.
 *
 * @example
 * snippet('Stop nuts stay tight under vibration.', 'tight nut')
 * // [{ text: 'Stop nuts stay ' }, { text: 'tight', hit: true }, { text: ' under vibration.' }]
 */
export function snippet(text: string, query: string, options: Readonly<SnippetOptions> = {}): SnippetPart[] {
  const { maxChars = 320 } = options;
  const flat = text.replace(/\s+/g, ' ').trim();
  const terms = queryTerms(query);
  const matches = [...flat.matchAll(WORD)].filter(([word]) => terms.has(word.toLowerCase())).map((m) => [m.index, m.index + m[0].length] as const);
  // Start a little before the first match, at a word boundary, so the reader sees its context.
  let start = 0;
  if (matches.length > 0 && matches[0]![1] > maxChars * 0.6) {
    start = flat.lastIndexOf(' ', Math.max(0, matches[0]![0] - Math.floor(maxChars * 0.25))) + 1;
  }
  let end = Math.min(flat.length, start + maxChars);
  if (end < flat.length) end = Math.max(start + 1, flat.lastIndexOf(' ', end));
  const parts: SnippetPart[] = [];
  const plain = (from: number, to: number): void => {
    if (to > from) parts.push({ text: flat.slice(from, to) });
  };
  if (start > 0) parts.push({ text: '… ' });
  let at = start;
  for (const [from, to] of matches) {
    if (from < start || to > end) continue;
    plain(at, from);
    parts.push({ text: flat.slice(from, to), hit: true });
    at = to;
  }
  plain(at, end);
  if (end < flat.length) parts.push({ text: ' …' });
  return parts;
}
