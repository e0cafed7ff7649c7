/**
 * Formula delimiters, handled before the Markdown parser sees the page. Every rewrite keeps the
 * length of the text, so parser offsets stay offsets into the page Markdown.
 *
 * - Display math that owns its lines (`$$…$$`, `\[…\]`, `\begin{equation}…\end{equation}`) is cut
 *   out here and becomes a formula element: remark-math would otherwise read `$$x` + newline as a
 *   fence with meta `x` and swallow the rest of the page into one formula.
 * - Inline `\(…\)` (and `\[…\]` inside a line) become `$$…$$`, which remark-math reads as inline math;
 *   CommonMark would otherwise read `\(` as an escaped parenthesis and lose the backslash.
 */

export interface DisplayMath {
  readonly start: number;
  readonly end: number;
  readonly latex: string;
  /** False when the closing delimiter is missing (cut at the next blank line). */
  readonly closed: boolean;
}

/** An inline formula whose delimiters were rewritten to `$$…$$`: [start, end) covers the delimiters. */
export interface InlineMathSpan {
  readonly start: number;
  readonly end: number;
}

export interface MathPrepared {
  readonly text: string;
  readonly display: readonly DisplayMath[];
  /** Rewritten inline spans, in order. */
  readonly inline: readonly InlineMathSpan[];
}

const environments = /^\\begin\{(equation\*?|align\*?|gather\*?|multline\*?|eqnarray\*?|displaymath|math)\}/u;

/**
 * Cut display math out of `text` and rewrite inline delimiters to `$$…$$`, keeping offsets.
 *
 * @example
 * prepareMath('a \\(x\\) b').text // 'a $$x$$ b'
 */
export function prepareMath(text: string): MathPrepared {
  if (!text.includes('$') && !text.includes('\\')) return { text, display: [], inline: [] };
  const edits: Edit[] = [];
  const display: DisplayMath[] = [];
  let offset = 0;
  let fence: string | undefined;
  while (offset < text.length) {
    const lineEnd = endOfLine(text, offset);
    const line = text.slice(offset, lineEnd);
    const trimmed = line.trimStart();
    const indent = line.length - trimmed.length;
    // Code is code: no math inside fenced blocks.
    const fenceMatch = /^(`{3,}|~{3,})/u.exec(trimmed);
    if (fence !== undefined) {
      if (fenceMatch && fenceMatch[1]!.startsWith(fence)) fence = undefined;
      offset = lineEnd + 1;
      continue;
    }
    if (fenceMatch && indent < 4) {
      fence = fenceMatch[1]!;
      offset = lineEnd + 1;
      continue;
    }
    const start = offset + indent;
    const found = indent < 4 ? readDisplay(text, start) : undefined;
    if (found) {
      display.push(found);
      edits.push({ start: found.start, end: found.end, text: text.slice(found.start, found.end).replace(/[^\n]/gu, ' ') });
      offset = endOfLine(text, Math.max(found.end - 1, start)) + 1;
      continue;
    }
    offset = lineEnd + 1;
  }
  const inline = rewriteInline(edits, text, display);
  return { text: applyEdits(text, edits), display, inline };
}

function readDisplay(text: string, start: number): DisplayMath | undefined {
  let open: string;
  let close: string;
  if (text.startsWith('$$', start)) {
    open = '$$';
    close = '$$';
  } else if (text.startsWith('\\[', start)) {
    open = '\\[';
    close = '\\]';
  } else {
    const env = environments.exec(text.slice(start, start + 40));
    if (!env) return undefined;
    open = '';
    close = `\\end{${env[1]!}}`;
  }
  // TeX display math cannot hold a blank line, so a missing close ends at the next one.
  const limit = nextBlankLine(text, start);
  const from = start + (open === '' ? 1 : open.length);
  const closeAt = text.indexOf(close, from);
  if (closeAt !== -1 && closeAt < limit) {
    const end = closeAt + close.length;
    // Text after the closing delimiter on the same line: it is inline math in a paragraph.
    if (text.slice(end, endOfLine(text, end)).trim() !== '') return undefined;
    const latex = open === '' ? text.slice(start, end) : text.slice(start + open.length, closeAt);
    return { start, end, latex: latex.trim(), closed: true };
  }
  if (open === '$$' && text.slice(start + 2, endOfLine(text, start)).includes('$')) return undefined;
  const latex = text.slice(start + open.length, limit);
  return { start, end: limit, latex: latex.trim(), closed: false };
}

// `\(…\)` → `$$…$$` (same length). `\[…\]` mid-line too, unless it only holds digits: that is
// an escaped citation like `\[12\]`, not math.
function rewriteInline(edits: Edit[], text: string, display: readonly DisplayMath[]): InlineMathSpan[] {
  const spans: InlineMathSpan[] = [];
  if (!text.includes('\\(') && !text.includes('\\[')) return spans;
  const pattern = /\\\(([\s\S]{0,2000}?)\\\)|\\\[([\s\S]{0,2000}?)\\\]/gu;
  let match: RegExpExecArray | null;
  let d = 0;
  while ((match = pattern.exec(text)) !== null) {
    const start = match.index;
    const end = start + match[0].length;
    while (d < display.length && display[d]!.end <= start) d++;
    const inDisplay = d < display.length && display[d]!.start <= start;
    if (inDisplay || text[start - 1] === '\\') continue;
    const body = match[1] ?? match[2] ?? '';
    // Empty, multi-paragraph or dollar-holding bodies would not survive as `$$…$$`: leave them as text.
    if (body.trim() === '' || body.includes('$') || /\n[ \t]*\n/u.test(body)) continue;
    if (match[2] !== undefined && /^[\d,\s–-]*$/u.test(body)) continue;
    edits.push({ start, end: start + 2, text: '$$' }, { start: end - 2, end, text: '$$' });
    spans.push({ start, end });
  }
  return spans;
}

function endOfLine(text: string, offset: number): number {
  const i = text.indexOf('\n', offset);
  return i === -1 ? text.length : i;
}

function nextBlankLine(text: string, offset: number): number {
  const pattern = /\n[ \t]*\n/gu;
  pattern.lastIndex = offset;
  const match = pattern.exec(text);
  return match ? match.index : text.length;
}

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

// Same-length replacements, applied in offset order.
function applyEdits(text: string, edits: Edit[]): string {
  if (edits.length === 0) return text;
  edits.sort((a, b) => a.start - b.start);
  const parts: string[] = [];
  let cursor = 0;
  for (const edit of edits) {
    parts.push(text.slice(cursor, edit.start), edit.text);
    cursor = edit.end;
  }
  parts.push(text.slice(cursor));
  return parts.join('');
}
