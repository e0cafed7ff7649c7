/**
 * The blocks every format reader produces, and how they become the Markdown the rest of the
 * pipeline parses (headings, emphasis and links in Markdown, tables as HTML so spans survive,
 * formulas in `$$…$$`). Readers never write Markdown syntax themselves: escaping lives here.
 */

/** A run of inline text with its emphasis and link. */
export interface Span {
  readonly text: string;
  readonly bold?: boolean;
  readonly italic?: boolean;
  readonly code?: boolean;
  readonly href?: string;
  /** Inline LaTeX (an equation inside a sentence). */
  readonly math?: boolean;
  /** Deleted text kept visible (a tracked change shown, not accepted). */
  readonly strike?: boolean;
  /** Markdown written as is (a footnote reference `[^3]`). */
  readonly raw?: boolean;
}

export interface TableCell {
  readonly text: string;
  readonly rowspan?: number;
  readonly colspan?: number;
  readonly header?: boolean;
}

export interface ListItem {
  readonly spans: readonly Span[];
  /** 0-based nesting depth. */
  readonly level: number;
  readonly ordered: boolean;
  /** The number shown, for the first item of an ordered list. */
  readonly number?: number;
}

export type Block =
  | { readonly kind: 'heading'; readonly level: number; readonly spans: readonly Span[] }
  /** `range`: the cells it was read from, A1-style without the sheet (`B2`, `A1:D40`), in a spreadsheet. */
  | { readonly kind: 'paragraph'; readonly spans: readonly Span[]; readonly range?: string }
  | { readonly kind: 'list'; readonly items: readonly ListItem[] }
  | { readonly kind: 'table'; readonly rows: readonly (readonly TableCell[])[]; readonly range?: string }
  | { readonly kind: 'code'; readonly text: string; readonly language?: string }
  | { readonly kind: 'formula'; readonly latex: string }
  | { readonly kind: 'quote'; readonly spans: readonly Span[] }
  /** `src`: the picture's part inside the package (`word/media/image1.png`), for {@link FormatDocument.media}. */
  | { readonly kind: 'figure'; readonly alt: string; readonly src?: string };

/** Plain text of spans. */
export function spansText(spans: readonly Span[]): string {
  return spans.map((s) => s.text).join('');
}

/** True when the spans hold no visible text. */
export function isBlank(spans: readonly Span[]): boolean {
  return spansText(spans).trim() === '';
}

// `$` opens math and `~` strikethrough under the GFM and math extensions the parser uses.
const SPECIAL = /[\\`*_<>&$~|]/g;

/** Text made safe for a Markdown paragraph: no accidental emphasis, links, HTML, math or list markers. */
export function escapeMarkdown(text: string): string {
  // Brackets as character references: the parser reads `\[…\]` as display math (OCR's convention).
  let out = text
    .replace(SPECIAL, (c) => `\\${c}`)
    .replace(/\[/g, '&#91;')
    .replace(/\]/g, '&#93;');
  // A line that starts like a heading, quote, list item or thematic break would change the block.
  out = out.replace(/^(\s*)([#+=-])/gm, '$1\\$2').replace(/^(\s*\d+)([.)])(\s|$)/gm, '$1\\$2$3');
  return out;
}

export function escapeHtml(text: string): string {
  // A backslash as a reference too: `\[…\]` or `\(…\)` in a cell would read as math.
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/\\/g, '&#92;');
}

/** Spans as inline Markdown; whitespace at the edge of an emphasised run moves outside its markers. */
export function inlineMarkdown(spans: readonly Span[]): string {
  const merged = mergeSpans(spans);
  let out = '';
  for (const span of merged) {
    const text = span.text.replace(/[\r\n\t\f\v]+/g, ' ');
    if (text === '') continue;
    if (span.math) {
      out += ` $${text.trim()}$ `;
      continue;
    }
    if (span.raw) {
      out += text;
      continue;
    }
    const lead = /^\s*/.exec(text)![0];
    const trail = /\s*$/.exec(text.slice(lead.length))![0];
    const core = text.slice(lead.length, text.length - trail.length);
    if (core === '') {
      out += text;
      continue;
    }
    let body = span.code ? `\`${core.replace(/`/g, "'")}\`` : escapeMarkdown(core);
    if (span.italic && !span.code) body = `*${body}*`;
    if (span.bold && !span.code) body = `**${body}**`;
    if (span.strike && !span.code) body = `~~${body}~~`;
    if (span.href !== undefined && /^(https?:|mailto:|#)/i.test(span.href)) body = `[${body}](<${span.href.replace(/[<>\s]/g, encodeURIComponent)}>)`;
    out += lead + body + trail;
  }
  return out.replace(/ {2,}/g, ' ').trim();
}

/** Neighbouring spans with the same formatting become one, so markers are not repeated word by word. */
function mergeSpans(spans: readonly Span[]): Span[] {
  const out: Span[] = [];
  for (const span of spans) {
    const last = out[out.length - 1];
    if (
      last &&
      !last.math &&
      !span.math &&
      !last.raw &&
      !span.raw &&
      !!last.bold === !!span.bold &&
      !!last.italic === !!span.italic &&
      !!last.code === !!span.code &&
      !!last.strike === !!span.strike &&
      last.href === span.href
    ) {
      out[out.length - 1] = { ...last, text: last.text + span.text };
    } else out.push(span);
  }
  return out;
}

/** A table as one HTML block (no blank line inside, so Markdown keeps it whole). */
export function tableHtml(rows: readonly (readonly TableCell[])[]): string {
  const body = rows
    .map((row) => {
      const cells = row.map((cell) => {
        const tag = cell.header ? 'th' : 'td';
        const spans = `${(cell.rowspan ?? 1) > 1 ? ` rowspan="${cell.rowspan}"` : ''}${(cell.colspan ?? 1) > 1 ? ` colspan="${cell.colspan}"` : ''}`;
        return `<${tag}${spans}>${escapeHtml(cell.text.replace(/\s+/g, ' ').trim())}</${tag}>`;
      });
      return `<tr>${cells.join('')}</tr>`;
    })
    .join('');
  return `<table>${body}</table>`;
}

function listMarkdown(items: readonly ListItem[]): string {
  const lines: string[] = [];
  let previous = -1;
  const counters: number[] = [];
  for (const item of items) {
    // A level may only deepen by one: a deeper jump would read as an indented code block.
    const level = Math.max(0, Math.min(item.level, previous + 1));
    counters.length = level + 1;
    const number = item.number ?? (counters[level] ?? 0) + 1;
    counters[level] = number;
    previous = level;
    const marker = item.ordered ? `${number}.` : '-';
    const text = inlineMarkdown(item.spans);
    lines.push(`${'    '.repeat(level)}${marker} ${text === '' ? '\u00a0' : text}`);
  }
  return lines.join('\n');
}

function blockMarkdown(block: Block): string {
  switch (block.kind) {
    case 'heading': {
      const text = inlineMarkdown(block.spans);
      return text === '' ? '' : `${'#'.repeat(Math.min(6, Math.max(1, block.level)))} ${text}`;
    }
    case 'paragraph':
      return inlineMarkdown(block.spans);
    case 'quote': {
      const text = inlineMarkdown(block.spans);
      return text === '' ? '' : `> ${text}`;
    }
    case 'list':
      return listMarkdown(block.items);
    case 'table':
      return block.rows.length === 0 ? '' : tableHtml(block.rows);
    case 'code': {
      const fence = block.text.includes('```') ? '~~~~' : '```';
      return `${fence}${block.language ?? ''}\n${block.text.replace(/\n+$/, '')}\n${fence}`;
    }
    case 'formula':
      return block.latex.trim() === '' ? '' : `$$\n${block.latex.trim()}\n$$`;
    case 'figure':
      return `![${escapeMarkdown(block.alt.replace(/\s+/g, ' ').trim())}]()`;
  }
}

/**
 * Blocks as Markdown, one blank line between blocks; consecutive list blocks are kept apart so
 * they stay separate lists.
 *
 * @example
 * blocksToMarkdown([{ kind: 'heading', level: 1, spans: [{ text: 'Title' }] }]) // '# Title'
 */
export function blocksToMarkdown(blocks: readonly Block[]): string {
  const out: string[] = [];
  for (const block of blocks) {
    const text = blockMarkdown(block);
    if (text.trim() === '') continue;
    out.push(text);
  }
  return out.join('\n\n');
}

/** Plain text of a block, for a table cell. */
export function blockText(block: Block): string {
  switch (block.kind) {
    case 'heading':
    case 'paragraph':
    case 'quote':
      return spansText(block.spans).replace(/\s+/g, ' ').trim();
    case 'list':
      return block.items.map((item) => spansText(item.spans).trim()).join(' ');
    case 'table':
      return block.rows.map((row) => row.map((cell) => cell.text).join(' ')).join(' ');
    case 'code':
      return block.text;
    case 'formula':
      return `$${block.latex}$`;
    case 'figure':
      return '';
  }
}
