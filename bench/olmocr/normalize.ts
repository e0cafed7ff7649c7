/**
 * olmOCR-Bench text normalisation: applied to both the expected text and the candidate Markdown
 * before any comparison, so Markdown emphasis, typographic quotes and line wrapping never count
 * as differences.
 */

// Curly quotes, dashes and the micro sign show up in real output and mean the same as their ASCII
// counterparts for the purpose of "is this sentence on the page".
const REPLACEMENTS: ReadonlyArray<readonly [string, string]> = [
  ['\u2018', "'"],
  ['\u2019', "'"],
  ['\u201a', "'"],
  ['\u201c', '"'],
  ['\u201d', '"'],
  ['\u201e', '"'],
  ['\uff3f', '_'],
  ['\u2013', '-'],
  ['\u2014', '-'],
  ['\u2011', '-'],
  ['\u2012', '-'],
  ['\u2212', '-'],
  ['\u00b5', '\u03bc'],
];

/**
 * Normalise Markdown (or expected text) the way olmOCR-Bench does: `<br>` to a space, bold and
 * italic markers (`**`, `__`, `*`, `_`, `<b>`, `<i>`) removed, whitespace collapsed to one space,
 * NFC, curly quotes and dashes to ASCII.
 *
 * @example
 * normalizeText('**Hello**\n  “world”') // 'Hello "world"'
 */
export function normalizeText(markdown: string): string {
  let text = markdown.replace(/<br\/?>/g, ' ');
  text = text.replace(/\*\*(.*?)\*\*/g, '$1');
  text = text.replace(/__(.*?)__/g, '$1');
  text = text.replace(/<\/?b>/g, '');
  text = text.replace(/<\/?i>/g, '');
  // `.` does not cross newlines, so a marker pair never spans two paragraphs.
  text = text.replace(/(\*\*|__)(.*?)\1/g, '$2');
  text = text.replace(/(\*|_)(.*?)\1/g, '$2');
  // Python's \s also covers the information separators U+001C–U+001F; JavaScript's does not.
  text = text.replace(/[\s\x1c-\x1f]+/g, ' ');
  text = text.normalize('NFC');
  for (const [from, to] of REPLACEMENTS) text = text.replaceAll(from, to);
  return text;
}
