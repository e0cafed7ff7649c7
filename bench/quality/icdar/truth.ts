/**
 * Ground truth of the ICDAR 2013 table competition: `<name>-str.xml` → one grid per `<table>`,
 * its regions' cells shifted by their `row-increment` / `col-increment`.
 */
import { readFile } from 'node:fs/promises';
import { ConfigurationError } from '../../../core/errors.ts';
import type { Grid, GridCell } from './grid.ts';
import { normalizeCellText } from './grid.ts';

// Attribute values are quoted with either quote mark in these files.
const attr = (tag: string, name: string): string | undefined => {
  const m = new RegExp(`\\b${name}=(?:"([^"]*)"|'([^']*)')`).exec(tag);
  return m ? (m[1] ?? m[2]) : undefined;
};

function decodeXml(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(Number.parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&apos;', "'")
    .replaceAll('&amp;', '&');
}

/**
 * Parse a structure file's text into grids. The format is small and regular, so a few regular
 * expressions read it; a cell without `start-row`/`start-col` is a ConfigurationError naming it.
 *
 * @example
 * parseStructure('<table><region><cell start-row="0" start-col="0"><content>a</content></cell></region></table>', 'x')
 */
export function parseStructure(xml: string, source: string): Grid[] {
  const grids: Grid[] = [];
  for (const table of xml.matchAll(/<table\b[^>]*>([\s\S]*?)<\/table>/g)) {
    const cells: GridCell[] = [];
    for (const region of table[1]!.matchAll(/<region\b([^>]*)>([\s\S]*?)<\/region>/g)) {
      const dr = Number(attr(region[1]!, 'row-increment') ?? 0) || 0;
      const dc = Number(attr(region[1]!, 'col-increment') ?? 0) || 0;
      for (const cell of region[2]!.matchAll(/<cell\b([^>]*)>([\s\S]*?)<\/cell>/g)) {
        const head = cell[1]!;
        const row = Number(attr(head, 'start-row'));
        const col = Number(attr(head, 'start-col'));
        if (!Number.isInteger(row) || !Number.isInteger(col)) {
          throw new ConfigurationError('FOLIO_BENCH_DATASET', `${source}: a <cell> lacks start-row/start-col: <cell${head}>`);
        }
        const endRow = Number(attr(head, 'end-row') ?? row);
        const endCol = Number(attr(head, 'end-col') ?? col);
        const content = /<content>([\s\S]*?)<\/content>/.exec(cell[2]!)?.[1] ?? '';
        cells.push({
          text: normalizeCellText(decodeXml(content)),
          row: row + dr,
          col: col + dc,
          endRow: Math.max(row, endRow) + dr,
          endCol: Math.max(col, endCol) + dc,
        });
      }
    }
    grids.push({ cells });
  }
  return grids;
}

/** Read and parse `<name>-str.xml`. */
export async function readStructure(file: string): Promise<Grid[]> {
  let xml: string;
  try {
    xml = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigurationError('FOLIO_BENCH_DATASET', `cannot read ICDAR structure file \`${file}\``, { cause: error });
  }
  return parseStructure(xml, file);
}
