/**
 * Excel (XLSX, XLSM): one page per worksheet, headed by the sheet's name; the tables found in the
 * sheet (`sheet-tables.ts`); shared and inline strings, formulas' cached values, dates shown as
 * dates (by the cell's number format), merged cells as spans. Bounded in cells.
 */
import { SourceError } from '../../core/errors.ts';
import type { Block } from './blocks.ts';
import { chartBlocks, drawingCharts } from './chart.ts';
import { mainPart, packageTitle, readPart, relatedPart, relationships } from './ooxml.ts';
import { type SheetCell, type SheetMerge, sheetBlocks } from './sheet-tables.ts';
import type { FormatDocument, FormatPage } from './types.ts';
import { attr, kid, kids, parseXml, relId, textOf, type XmlElement } from './xml.ts';
import { openZip, type ZipArchive } from './zip.ts';

/** Built-in number formats that show a date or time. */
const DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 30, 36, 45, 46, 47, 50, 57]);

export interface XlsxOptions {
  /**
   * Most cells read from the whole workbook.
   * @default 500000 (a sheet that size takes about 30 s and 1 GB through parse and chunking)
   */
  readonly maxCells?: number;
}

/** `B12` → { row: 11, col: 1 }. */
export function cellRef(ref: string): { row: number; col: number } | undefined {
  const match = /^\$?([A-Z]{1,3})\$?(\d{1,7})$/.exec(ref.toUpperCase());
  if (!match) return undefined;
  let col = 0;
  for (const ch of match[1]!) col = col * 26 + (ch.charCodeAt(0) - 64);
  return { row: Number(match[2]) - 1, col: col - 1 };
}

/** Excel's serial date (days since 1899-12-30, the 1900 leap-year bug included) as ISO text. */
export function serialDate(serial: number): string {
  const ms = Math.round((serial - 25569) * 86400 * 1000);
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return String(serial);
  const iso = date.toISOString();
  return serial % 1 === 0 ? iso.slice(0, 10) : iso.slice(0, 19).replace('T', ' ');
}

/** A number as Excel shows it in General format: at most 15 significant digits. */
function general(value: string): string {
  const n = Number(value);
  if (!Number.isFinite(n) || value.trim() === '') return value;
  return String(Number(n.toPrecision(15)));
}

function dateStyles(styles: XmlElement | undefined): Set<number> {
  const custom = new Map<number, string>();
  for (const fmt of kids(kid(styles, 'numFmts'), 'numFmt')) custom.set(Number(attr(fmt, 'numFmtId')), attr(fmt, 'formatCode') ?? '');
  const out = new Set<number>();
  kids(kid(styles, 'cellXfs'), 'xf').forEach((xf, index) => {
    const id = Number(attr(xf, 'numFmtId') ?? 0);
    // A custom format is a date when it has day, month or year codes outside quotes and brackets.
    const code = (custom.get(id) ?? '').replace(/"[^"]*"|\[[^\]]*\]/g, '');
    if (DATE_FORMATS.has(id) || /[dy]|m{3,}/i.test(code)) out.add(index);
  });
  return out;
}

function cellText(c: XmlElement, shared: readonly string[], dates: ReadonlySet<number>): string {
  const type = attr(c, 't') ?? 'n';
  if (type === 'inlineStr') return textOf(kid(c, 'is'));
  const v = kid(c, 'v');
  if (v === undefined) return '';
  const raw = textOf(v);
  if (type === 's') return shared[Number(raw)] ?? '';
  if (type === 'b') return raw === '1' ? 'TRUE' : 'FALSE';
  if (type === 'str' || type === 'e') return raw;
  const style = Number(attr(c, 's') ?? -1);
  if (dates.has(style) && Number.isFinite(Number(raw))) return serialDate(Number(raw));
  return general(raw);
}

function rangeOf(ref: string): SheetMerge | undefined {
  const [a, b] = ref.split(':');
  const from = cellRef(a ?? '');
  const to = cellRef(b ?? a ?? '');
  return from && to
    ? { top: Math.min(from.row, to.row), left: Math.min(from.col, to.col), bottom: Math.max(from.row, to.row), right: Math.max(from.col, to.col) }
    : undefined;
}

/** The charts drawn on a worksheet or chartsheet, through its drawing part. */
function sheetCharts(zip: ZipArchive, sheetPath: string): Block[] {
  const blocks: Block[] = [];
  for (const rel of relationships(zip, sheetPath).values()) {
    if (rel.external || !rel.type.endsWith('/drawing')) continue;
    for (const chart of drawingCharts(readPart(zip, rel.target), relationships(zip, rel.target))) blocks.push(...chartBlocks(zip, chart));
  }
  return blocks;
}

/**
 * Read an XLSX workbook: one page per worksheet.
 *
 * @example
 * readXlsx(bytes).pages.map((p) => p.label) // ['Sheet1', 'Sheet2']
 */
export function readXlsx(bytes: Uint8Array, options: Readonly<XlsxOptions> = {}): FormatDocument {
  const { maxCells = 500_000 } = options;
  const zip = openZip(bytes);
  const main = mainPart(zip, 'xl/workbook.xml');
  const rels = relationships(zip, main);
  const workbook = readPart(zip, main);
  const sst = readPart(zip, relatedPart(rels, '/sharedStrings') ?? 'xl/sharedStrings.xml');
  // Rich-text runs hold the string's pieces; phonetic guides (`rPh`) are not part of the text.
  const shared = kids(sst, 'si').map((si) =>
    kids(si)
      .filter((k) => k.local === 't' || k.local === 'r')
      .map((k) => textOf(k.local === 'r' ? kid(k, 't') : k))
      .join(''),
  );
  const dates = dateStyles(readPart(zip, relatedPart(rels, '/styles') ?? 'xl/styles.xml'));
  const pages: FormatPage[] = [];
  let total = 0;
  for (const sheet of kids(kid(workbook, 'sheets'), 'sheet')) {
    const rel = rels.get(relId(sheet) ?? '');
    if (!rel || rel.external) continue;
    const name = attr(sheet, 'name') ?? rel.target;
    if (rel.type.endsWith('/chartsheet')) {
      pages.push({ blocks: [{ kind: 'heading', level: 2, spans: [{ text: name }] }, ...sheetCharts(zip, rel.target)], label: name, sheet: name });
      continue;
    }
    if (!rel.type.endsWith('/worksheet')) continue;
    const source = zip.text(rel.target) ?? '';
    // Count cells in the text before building the tree: a million-cell sheet fails in a second, not after a gigabyte.
    const declared = source.match(/<(?:\w+:)?c[\s>/]/g)?.length ?? 0;
    if (total + declared > maxCells)
      throw new SourceError('FOLIO_FORMAT_TOO_LARGE', `the workbook holds more than ${maxCells} cells (sheet ${name} alone has ${declared})`);
    const xml = source === '' ? undefined : parseXml(source, rel.target);
    const cells: SheetCell[] = [];
    for (const row of kids(kid(xml, 'sheetData'), 'row')) {
      let next = Number(attr(row, 'r') ?? 0) - 1;
      let col = 0;
      for (const c of kids(row, 'c')) {
        const at = cellRef(attr(c, 'r') ?? '') ?? { row: next, col };
        col = at.col + 1;
        next = at.row;
        if (++total > maxCells) throw new SourceError('FOLIO_FORMAT_TOO_LARGE', `the workbook holds more than ${maxCells} cells`);
        const text = cellText(c, shared, dates);
        if (text !== '') cells.push({ row: at.row, col: at.col, text });
      }
    }
    const merges = kids(kid(xml, 'mergeCells'), 'mergeCell')
      .map((m) => rangeOf(attr(m, 'ref') ?? ''))
      .filter((m): m is SheetMerge => m !== undefined);
    const blocks: Block[] = [{ kind: 'heading', level: 2, spans: [{ text: name }] }, ...sheetBlocks(cells, merges), ...sheetCharts(zip, rel.target)];
    pages.push({ blocks, label: name, sheet: name });
  }
  return { format: 'xlsx', pages, ...packageTitle(zip) };
}
