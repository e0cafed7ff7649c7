/**
 * Scores of one engine's output against the factory's truth, per document: tests passed by type
 * (the olmOCR-Bench runner), table structure (ICDAR adjacency relations), body CER, and — where
 * the engine says what it took for furniture (Folio's elements JSON) — furniture precision and
 * recall in character trigrams, page by page.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Element } from '../../core/types.ts';
import { characterErrorRate, plainText } from '../ocr/index.ts';
import type { Grid, RelationCounts } from '../quality/icdar/index.ts';
import { documentCounts, normalizeCellText, predictedTables } from '../quality/icdar/index.ts';
import { truthPlainText } from './markdown.ts';
import type { DocumentTruth, TruthTable } from './types.ts';

/**
 * A line's letters and digits, lowercased, spaces and punctuation dropped (OCR often glues or
 * splits words: `Journal ofApplied`, `Vol.4,No.3`), as trigrams padded at both ends, so a
 * one-character page number still counts as three units and a misread one as a miss.
 */
export function trigrams(lines: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const line of lines) {
    const core = line.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
    if (core === '') continue;
    const padded = [...`^^${core}$$`];
    for (let i = 0; i + 3 <= padded.length; i++) {
      const g = padded.slice(i, i + 3).join('');
      m.set(g, (m.get(g) ?? 0) + 1);
    }
  }
  return m;
}

const total = (m: ReadonlyMap<string, number>): number => [...m.values()].reduce((s, n) => s + n, 0);

export interface FurnitureCounts {
  /** Truth furniture trigrams found among the furniture the engine took out. */
  readonly matched: number;
  readonly truthUnits: number;
  readonly foundUnits: number;
}

/** Furniture counts over a document's pages. */
export function furnitureCounts(elements: readonly Element[], truth: DocumentTruth): FurnitureCounts {
  let matched = 0;
  let truthUnits = 0;
  let foundUnits = 0;
  truth.furniture.forEach((page, i) => {
    const found = trigrams(elements.filter((e) => e.pageNumber === i + 1 && (e.kind === 'pageHeader' || e.kind === 'pageFooter')).map((e) => e.text));
    const want = trigrams([...page.header, ...page.footer]);
    for (const [g, n] of want) matched += Math.min(n, found.get(g) ?? 0);
    truthUnits += total(want);
    foundUnits += total(found);
  });
  return { matched, truthUnits, foundUnits };
}

/** A truth table as the ICDAR metric's grid. */
export function truthGrid(table: TruthTable): Grid {
  return {
    cells: table.cells.map((c) => ({ text: normalizeCellText(c.text), row: c.row, col: c.col, endRow: c.row + c.rowspan - 1, endCol: c.col + c.colspan - 1 })),
  };
}

export interface DocumentScore {
  readonly tables: RelationCounts;
  /** Edit distance of the body's plain text and the truth's, and the truth's length. */
  readonly edits: number;
  readonly truthChars: number;
  /** Undefined where the engine wrote no elements JSON. */
  readonly furniture?: FurnitureCounts;
}

/** Score one document's Markdown (and elements JSON beside it, when there is one). */
export async function scoreDocument(markdownFile: string, truth: DocumentTruth): Promise<DocumentScore> {
  const markdown = await readFile(markdownFile, 'utf8').catch(() => '');
  const tables = documentCounts(
    truth.blocks.flatMap((b) => (b.kind === 'table' ? [truthGrid(b.table)] : [])),
    predictedTables(markdown),
  );
  const reference = plainText(truthPlainText(truth.blocks));
  const cer = characterErrorRate(plainText(markdown), reference);
  const json = markdownFile.replace(/\.md$/, '.json');
  const elements = await readFile(json, 'utf8')
    .then((text) => (JSON.parse(text) as { elements?: Element[] }).elements)
    .catch(() => undefined);
  return {
    tables,
    edits: cer * [...reference].length,
    truthChars: [...reference].length,
    ...(elements === undefined ? {} : { furniture: furnitureCounts(elements, truth) }),
  };
}

/** Read a document's truth. */
export async function readTruth(truthDir: string, id: string): Promise<DocumentTruth> {
  return JSON.parse(await readFile(path.join(truthDir, `${id}.truth.json`), 'utf8')) as DocumentTruth;
}
