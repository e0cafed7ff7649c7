import type { Element, ElementLocation } from '../../core/types.ts';
import { rowsOf } from '../formats/cell-range.ts';
import { columnHeaders, escapeHtml } from '../markdown/table.ts';

/** A piece of content the packer places whole: an element, or a part of one too big for a chunk. */
export interface Unit {
  readonly text: string;
  readonly tokens: number;
  /** The elements behind the unit (a table and its caption are one unit). */
  readonly elements: readonly Element[];
  readonly headingPath: readonly string[];
  /** For a table (part): the HTML of the rows in this part, their row texts and the column headers. */
  readonly table?: { readonly html: string; readonly rowsText: readonly string[]; readonly header: readonly string[] };
  /** Overlap is taken from text units only, never from tables or formulas. */
  readonly prose: boolean;
  /** For a part of a sheet's table: the rows it holds (else the elements' own locations apply). */
  readonly location?: ElementLocation;
}

export interface UnitOptions {
  readonly budget: (headingPath: readonly string[]) => number;
  readonly countTokens: (text: string) => number;
}

/**
 * Turn elements into units: tables stay whole when they fit and are split by rows with the header
 * repeated when they do not; formulas are never split; prose is split at sentences, then words.
 */
export function toUnits(elements: readonly Element[], { budget, countTokens }: UnitOptions): Unit[] {
  const units: Unit[] = [];
  elements.forEach((element, i) => {
    const limit = budget(element.headingPath);
    if (element.kind === 'heading') {
      // A heading is carried by the heading path of what follows it; alone (nothing under it) it is content.
      const next = elements[i + 1];
      const empty = !next || (next.kind === 'heading' && (next.level ?? 1) <= (element.level ?? 1));
      if (empty && element.text !== '') units.push(textUnit(element, element.text, countTokens, [...element.headingPath]));
      return;
    }
    if (element.kind === 'table' && element.table) {
      // The caption right before a table travels with it.
      const previous = units[units.length - 1];
      const caption =
        previous && previous.elements.length === 1 && previous.elements[0]!.kind === 'caption' && elements[i - 1] === previous.elements[0]
          ? units.pop()
          : undefined;
      units.push(...tableUnits(element, caption, limit, countTokens));
      return;
    }
    const text = element.text;
    if (text === '') {
      // Untranscribed figures keep their box in whatever chunk they land in.
      units.push({ text: '', tokens: 0, elements: [element], headingPath: element.headingPath, prose: false });
      return;
    }
    const tokens = countTokens(text);
    if (tokens <= limit || element.kind === 'formula') {
      units.push({ text, tokens, elements: [element], headingPath: element.headingPath, prose: element.kind !== 'formula' });
      return;
    }
    const separator = element.kind === 'list' || element.kind === 'code' ? '\n' : ' ';
    const pieces = element.kind === 'list' || element.kind === 'code' ? text.split('\n') : splitSentences(text);
    for (const part of pack(pieces, limit, countTokens, separator)) units.push(textUnit(element, part, countTokens));
  });
  return units;
}

function textUnit(element: Element, text: string, countTokens: (text: string) => number, path?: readonly string[]): Unit {
  return { text, tokens: countTokens(text), elements: [element], headingPath: path ?? element.headingPath, prose: true };
}

function tableUnits(element: Element, caption: Unit | undefined, limit: number, countTokens: (text: string) => number): Unit[] {
  const table = element.table!;
  const header = columnHeaders(table.cells, table.headerRows);
  const named = header.filter((name) => name !== '');
  const headerLine = named.length > 0 ? named.join(' | ') : '';
  const lead = [caption?.text ?? '', headerLine].filter((line) => line !== '').join('\n');
  const elements = caption ? [...caption.elements, element] : [element];
  const whole = [lead, ...table.rowsText].filter((line) => line !== '').join('\n');
  const wholeTokens = countTokens(whole);
  if (wholeTokens <= limit || table.rowsText.length <= 1) {
    return [
      {
        text: whole,
        tokens: wholeTokens,
        elements,
        headingPath: element.headingPath,
        table: { html: table.html, rowsText: table.rowsText, header: named },
        prose: false,
      },
    ];
  }
  // Too big: split by rows, each part repeating the header (and a short caption) so it reads alone.
  const captionTokens = caption ? caption.tokens : 0;
  const partLead = captionTokens <= limit / 4 ? lead : headerLine;
  const leadTokens = countTokens(partLead);
  // rowsText skips empty rows; rows are indexed by their position among the non-empty ones.
  const body = table.cells.slice(table.headerRows);
  const bodyRow = body.flatMap((row, i) => (row.some((cell) => cell !== '') ? [i] : []));
  const nonEmpty = bodyRow.map((i) => body[i]!);
  // A sheet's table has one row per sheet row: a part names the sheet rows it holds.
  const partLocation = (first: number, last: number): ElementLocation | undefined => {
    const range = element.location?.range;
    const rows = range === undefined ? undefined : rowsOf(range, table.headerRows + first, table.headerRows + last);
    return rows === undefined ? undefined : { ...element.location, range: rows };
  };
  const units: Unit[] = [];
  let rows: number[] = [];
  let tokens = leadTokens;
  const flush = (): void => {
    if (rows.length === 0) return;
    const rowsText = rows.map((r) => table.rowsText[r] ?? '').filter((line) => line !== '');
    const html = partHtml(
      table.cells.slice(0, table.headerRows),
      rows.map((k) => nonEmpty[k] ?? []),
    );
    const text = [units.length === 0 ? lead : partLead, ...rowsText].filter((line) => line !== '').join('\n');
    const location = partLocation(bodyRow[rows[0]!]!, bodyRow[rows.at(-1)!]!);
    units.push({
      text,
      tokens: countTokens(text),
      elements,
      headingPath: element.headingPath,
      table: { html, rowsText, header: named },
      prose: false,
      ...(location === undefined ? {} : { location }),
    });
    rows = [];
    tokens = leadTokens;
  };
  nonEmpty.forEach((_row, k) => {
    const line = table.rowsText[k] ?? '';
    const cost = countTokens(line) + 1;
    const firstLead = units.length === 0 && rows.length === 0 ? countTokens(lead) - leadTokens : 0;
    if (rows.length > 0 && tokens + cost > limit) flush();
    rows.push(k);
    tokens += cost + firstLead;
  });
  flush();
  return units;
}

function partHtml(head: readonly (readonly string[])[], body: readonly (readonly string[])[]): string {
  const row = (cells: readonly string[], tag: string): string => `<tr>${cells.map((cell) => `<${tag}>${escapeHtml(cell)}</${tag}>`).join('')}</tr>`;
  const thead = head.length > 0 ? `<thead>${head.map((cells) => row(cells, 'th')).join('')}</thead>` : '';
  return `<table>${thead}<tbody>${body.map((cells) => row(cells, 'td')).join('')}</tbody></table>`;
}

/** Sentences (ASCII and CJK full stops), then words when a sentence alone is over the limit. */
function splitSentences(text: string): string[] {
  return text.split(/(?<=[.!?。！？])\s+|(?<=[。！？])/u).filter((part) => part !== '');
}

/** Greedy packing of pieces into parts of at most `limit` tokens; a piece over the limit is split at words. */
export function pack(pieces: readonly string[], limit: number, countTokens: (text: string) => number, separator: string): string[] {
  const parts: string[] = [];
  let current: string[] = [];
  let tokens = 0;
  const flush = (): void => {
    if (current.length > 0) parts.push(current.join(separator));
    current = [];
    tokens = 0;
  };
  for (const piece of pieces) {
    const cost = countTokens(piece);
    if (cost > limit) {
      flush();
      const words = piece.split(/(?<=\s)|(?=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])/u);
      let buffer = '';
      let bufferTokens = 0;
      for (const word of words) {
        const wordTokens = countTokens(word);
        if (buffer !== '' && bufferTokens + wordTokens > limit) {
          parts.push(buffer.trim());
          buffer = '';
          bufferTokens = 0;
        }
        buffer += word;
        bufferTokens += wordTokens;
      }
      if (buffer.trim() !== '') parts.push(buffer.trim());
      continue;
    }
    if (current.length > 0 && tokens + cost > limit) flush();
    current.push(piece);
    tokens += cost;
  }
  flush();
  return parts;
}
