/**
 * RTF: the text of the body, paragraph by paragraph, with bold and italic; font tables, style
 * sheets, pictures, document info and other destinations skipped; `\'hh` and `\uN` escapes
 * decoded (code page 1252 for the 8-bit ones). Table rows (`\row`) read as table rows.
 */
import type { Block, Span, TableCell } from './blocks.ts';
import { isBlank } from './blocks.ts';
import type { FormatDocument } from './types.ts';

/** Destinations that hold no body text. */
const SKIPPED = new Set([
  'fonttbl',
  'colortbl',
  'stylesheet',
  'info',
  'pict',
  'object',
  'header',
  'footer',
  'headerl',
  'headerr',
  'headerf',
  'footerl',
  'footerr',
  'footerf',
  'listtable',
  'listoverridetable',
  'rsidtbl',
  'generator',
  'xmlnstbl',
  'themedata',
  'colorschememapping',
  'datastore',
  'latentstyles',
  'fldinst',
  'filetbl',
  'revtbl',
  'pgdsctbl',
  'mmathPr',
  'bkmkstart',
  'bkmkend',
  'nonshppict',
  'shppict',
  'private',
  'annotation',
  'atnid',
  'atnauthor',
]);

interface State {
  bold: boolean;
  italic: boolean;
  skip: boolean;
  /** Characters to drop after a `\uN` (its ANSI fallback). */
  uc: number;
}

const cp1252 = new TextDecoder('windows-1252');

/**
 * @example
 * readRtf(new TextEncoder().encode('{\\rtf1 Hello {\\b world}\\par}')).pages[0].blocks
 */
/** Heading levels of the style sheet's paragraph styles (`{\s1 … Heading 1;}`), by style number. */
function headingStyles(text: string): Map<number, number> {
  const out = new Map<number, number>();
  const start = text.indexOf('{\\stylesheet');
  if (start < 0) return out;
  const sheet = text.slice(start, start + 200_000);
  for (const m of sheet.matchAll(/\{[^{}]*?\\s(\d+)\b[^{};]*?\s([^\\{};]+);\}/g)) {
    const name = m[2]!.trim();
    const level = /^heading\s*(\d)$/i.exec(name)?.[1];
    if (level !== undefined) out.set(Number(m[1]), Number(level) - 1);
    else if (/^title$/i.test(name)) out.set(Number(m[1]), 0);
  }
  return out;
}

export function readRtf(bytes: Uint8Array): FormatDocument {
  const text = new TextDecoder('latin1').decode(bytes);
  const styles = headingStyles(text);
  const blocks: Block[] = [];
  let spans: Span[] = [];
  let row: TableCell[] = [];
  let rows: TableCell[][] = [];
  let inTable = false;
  let cell: Span[] = [];
  const stack: State[] = [];
  let state: State = { bold: false, italic: false, skip: false, uc: 1 };
  let pendingSkip = 0;
  // A `\pard` not followed by `\intbl` ends the table at the next text.
  let pardOutsideTable = false;
  let outline = -1;
  const push = (t: string): void => {
    if (state.skip || t === '') return;
    if (inTable && pardOutsideTable) endTable();
    if (pendingSkip > 0) {
      const drop = Math.min(pendingSkip, t.length);
      pendingSkip -= drop;
      t = t.slice(drop);
      if (t === '') return;
    }
    (inTable ? cell : spans).push({ text: t, bold: state.bold, italic: state.italic });
  };
  const endParagraph = (): void => {
    if (inTable && !pardOutsideTable) {
      cell.push({ text: ' ' });
      return;
    }
    if (inTable) endTable();
    if (!isBlank(spans)) blocks.push(outline >= 0 ? { kind: 'heading', level: Math.min(6, outline + 1), spans } : { kind: 'paragraph', spans });
    spans = [];
  };
  function endTable(): void {
    if (rows.length > 0) blocks.push({ kind: 'table', rows: rows.map((r, i) => r.map((c) => ({ ...c, header: i === 0 }))) });
    rows = [];
    inTable = false;
  }
  let i = 0;
  let steps = 0;
  while (i < text.length) {
    if (++steps > 50_000_000) break;
    const c = text[i]!;
    if (c === '{') {
      stack.push({ ...state });
      if (stack.length > 1000) break;
      i++;
    } else if (c === '}') {
      state = stack.pop() ?? state;
      i++;
    } else if (c === '\\') {
      const m = /^\\(?:([a-zA-Z]+)(-?\d+)? ?|'([0-9a-fA-F]{2})|(.))/s.exec(text.slice(i, i + 40));
      if (!m) {
        i++;
        continue;
      }
      i += m[0].length;
      if (m[3] !== undefined) {
        push(cp1252.decode(new Uint8Array([Number.parseInt(m[3], 16)])));
        continue;
      }
      if (m[4] !== undefined) {
        if (m[4] === '\n' || m[4] === '\r') endParagraph();
        else if (m[4] === '~') push('\u00a0');
        else if (m[4] === '-' || m[4] === '_') push(m[4] === '_' ? '-' : '');
        else if (m[4] === '\\' || m[4] === '{' || m[4] === '}') push(m[4]);
        // `{\*\dest …}`: an optional destination this reader does not know is skipped whole.
        if (m[4] === '*') state.skip = true;
        continue;
      }
      const word = m[1]!;
      const arg = m[2] === undefined ? undefined : Number(m[2]);
      if (SKIPPED.has(word)) state.skip = true;
      else if (word === 'par' || word === 'line' || word === 'sect' || word === 'page') endParagraph();
      else if (word === 'tab') push(' ');
      else if (word === 'b') state.bold = arg !== 0;
      else if (word === 'i') state.italic = arg !== 0;
      else if (word === 'plain') Object.assign(state, { bold: false, italic: false });
      else if (word === 'uc') state.uc = arg ?? 1;
      else if (word === 'u' && arg !== undefined) {
        push(String.fromCharCode(arg < 0 ? arg + 65536 : arg));
        pendingSkip = state.uc;
      } else if (word === 'intbl') {
        if (!inTable && !isBlank(spans)) endParagraph();
        inTable = true;
        pardOutsideTable = false;
      } else if (word === 'pard') {
        pardOutsideTable = true;
        outline = -1;
      } else if (word === 'outlinelevel') outline = arg ?? -1;
      else if (word === 's' && !state.skip && arg !== undefined && styles.has(arg)) outline = styles.get(arg)!;
      else if (word === 'cell') {
        row.push({
          text: cell
            .map((s) => s.text)
            .join('')
            .trim(),
        });
        cell = [];
      } else if (word === 'row') {
        rows.push(row);
        row = [];
      } else if (word === 'emdash') push('—');
      else if (word === 'endash') push('–');
      else if (word === 'bullet') push('•');
      else if (word === 'lquote' || word === 'rquote') push("'");
      else if (word === 'ldblquote' || word === 'rdblquote') push('"');
    } else if (c === '\r' || c === '\n') i++;
    else {
      const next = text.slice(i).search(/[\\{}\r\n]/);
      const end = next < 0 ? text.length : i + next;
      push(text.slice(i, end));
      i = end;
    }
  }
  endTable();
  endParagraph();
  return { format: 'rtf', pages: [{ blocks }] };
}
