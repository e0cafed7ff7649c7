/**
 * Blocks to Markdown in the DeepSeek-OCR grounding form every engine shares: a
 * `<|ref|>label<|/ref|><|det|>[[x1, y1, x2, y2]]<|/det|>` line on a 0–999 grid of the image,
 * then the block, then a blank line. Tables are HTML, as the parser expects from OCR engines.
 */
import type { LayoutBlock } from './layout.ts';

/** Map a box from upright-image pixels to the grid of the image as it was given. */
export type BoxMapper = (box: readonly [number, number, number, number]) => readonly [number, number, number, number];

export function blocksToMarkdown(blocks: readonly LayoutBlock[], toGrid: BoxMapper): string {
  const parts: string[] = [];
  for (const block of blocks) {
    const [x1, y1, x2, y2] = toGrid([block.x1, block.y1, block.x2, block.y2]);
    const tag = `<|ref|>${block.label}<|/ref|><|det|>[[${x1}, ${y1}, ${x2}, ${y2}]]<|/det|>`;
    parts.push(`${tag}\n${renderBlock(block)}`);
  }
  return parts.length === 0 ? '' : `${parts.join('\n\n')}\n`;
}

function renderBlock(block: LayoutBlock): string {
  if (block.label === 'table') {
    const rows = (block.rows ?? []).map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`);
    return `<table>${rows.join('')}</table>`;
  }
  const text = joinLines(block.lines);
  if (block.label === 'title') return `# ${escapeInline(text)}`;
  if (block.label === 'sub_title') return `## ${escapeInline(text)}`;
  return escapeLeading(escapeInline(text));
}

/** Join wrapped lines into one paragraph, undoing end-of-line hyphenation before a lowercase word. */
export function joinLines(lines: readonly string[]): string {
  let out = '';
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    if (out === '') out = line;
    else if (/[a-z]-$/.test(out) && /^[a-z]/.test(line)) out = out.slice(0, -1) + line;
    else out += ` ${line}`;
  }
  return out;
}

/**
 * OCR text is literal: characters Markdown would read as syntax (math, emphasis, HTML) are escaped.
 * Of the brackets only `]` is: that alone stops links and definitions (`](`, `]:`), while an
 * escaped `[` would read as `\[`, the opening of display math.
 */
function escapeInline(text: string): string {
  return text.replace(/[\\`*_$<\]]/g, (c) => (c === '<' ? '&lt;' : `\\${c}`));
}

/** A paragraph that starts like a heading or quote is not one (bullets and numbers stay lists). */
function escapeLeading(text: string): string {
  return text.replace(/^(#|>|=)/, '\\$1');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
