/**
 * DrawingML charts (`c:chartSpace`, in Excel, PowerPoint and Word files): the title as a
 * paragraph and the data the chart caches as a table, one row per category and one column per
 * series, so a chart's numbers are searchable like any table's.
 */
import type { Block, TableCell } from './blocks.ts';
import { readPart } from './ooxml.ts';
import { find, findAll, kid, textOf, type XmlElement } from './xml.ts';
import type { ZipArchive } from './zip.ts';

/** The cached points of a reference (`c:strRef`/`c:numRef`) or literal, by index. */
function points(node: XmlElement | undefined): Map<number, string> {
  const out = new Map<number, string>();
  if (!node) return out;
  for (const pt of findAll(node, 'pt')) out.set(Number(pt.attrs['idx'] ?? out.size), textOf(kid(pt, 'v')).trim());
  return out;
}

function general(value: string): string {
  const n = Number(value);
  return value.trim() !== '' && Number.isFinite(n) ? String(Number(n.toPrecision(15))) : value;
}

/**
 * The blocks of one chart part, or none when it holds no data.
 *
 * @example
 * chartBlocks(zip, 'xl/charts/chart1.xml')
 */
export function chartBlocks(zip: ZipArchive, path: string): Block[] {
  const space = readPart(zip, path);
  const chart = kid(space, 'chart');
  const blocks: Block[] = [];
  const title = kid(chart, 'title');
  const titleText = title ? findAll(title, 't').map(textOf).join('').trim() : '';
  if (titleText !== '') blocks.push({ kind: 'paragraph', spans: [{ text: titleText }] });
  const series = findAll(kid(chart, 'plotArea'), 'ser');
  if (series.length === 0) return blocks;
  const names = series.map((ser, i) => {
    const tx = kid(ser, 'tx');
    const cached = points(tx);
    return (cached.get(0) ?? textOf(find(tx, 'v')).trim()) || `Series ${i + 1}`;
  });
  const categories = points(kid(series[0], 'cat') ?? kid(series[0], 'xVal'));
  const values = series.map((ser) => points(kid(ser, 'val') ?? kid(ser, 'yVal')));
  const count = Math.min(10_000, Math.max(categories.size, ...values.map((v) => v.size)));
  if (count === 0) return blocks;
  const rows: TableCell[][] = [[{ text: '', header: true }, ...names.map((text) => ({ text, header: true }))]];
  for (let i = 0; i < count; i++) {
    rows.push([{ text: categories.get(i) ?? String(i + 1) }, ...values.map((v) => ({ text: general(v.get(i) ?? '') }))]);
  }
  blocks.push({ kind: 'table', rows });
  return blocks;
}

/** Chart parts a drawing part points to (Excel's `xl/drawings/drawing1.xml`), in anchor order. */
export function drawingCharts(drawing: XmlElement | undefined, rels: ReadonlyMap<string, { target: string; type: string }>): string[] {
  const out: string[] = [];
  for (const ref of findAll(drawing, 'chart')) {
    const id = Object.entries(ref.attrs).find(([name]) => name.endsWith(':id'))?.[1];
    const rel = id === undefined ? undefined : rels.get(id);
    if (rel?.type.endsWith('/chart')) out.push(rel.target);
  }
  return out;
}
