/** Small, valid chunks for sink and index tests. */
import { stableId } from '../../core/hash.ts';
import type { Chunk } from '../../core/types.ts';

export interface ChunkSpec {
  readonly docId?: string;
  readonly source?: string;
  readonly index?: number;
  readonly text?: string;
  readonly vector?: readonly number[];
  readonly contentHash?: string;
}

/**
 * A chunk with every optional part filled (table, formulas, quality, lines), so mappings see all
 * fields. `index` is the position in its document.
 *
 * @example
 * const chunk = makeChunk({ docId: 'doc-a', index: 2 })
 */
export function makeChunk(spec: Readonly<ChunkSpec> = {}): Chunk {
  const { docId = 'doc-a', source = `file:///data/${docId}.pdf`, index = 0, contentHash = `hash-${docId}` } = spec;
  const text = spec.text ?? `Results > Table ${index}\nThe quarterly revenue of unit ${index} grew by ${index + 3} percent in ${docId}.`;
  return {
    id: stableId(docId, index),
    docId,
    source,
    title: `Report ${docId}`,
    text,
    headingPath: ['Results', `Table ${index}`],
    pages: [index + 1],
    bboxes: [{ page: index + 1, bbox: [10, 20, 300, 400] }],
    kinds: ['heading', 'table', 'formula'],
    tokens: 24,
    index,
    table: {
      html: '<table><tr><th>Unit</th><th>Growth</th></tr><tr><td>A</td><td>3%</td></tr></table>',
      rowsText: ['Unit: A; Growth: 3%'],
      header: ['Unit', 'Growth'],
    },
    formulas: [{ latex: 'E = mc^2', valid: true }],
    quality: { score: 0.93, passed: true, reasons: [] },
    contentHash,
    engine: 'text',
    lines: { from: index * 10 + 1, to: index * 10 + 9 },
    ...(spec.vector === undefined ? {} : { vector: spec.vector }),
  };
}

/** `count` chunks of one document, positions 0…count-1. */
export function makeChunks(count: number, spec: Readonly<ChunkSpec> = {}): Chunk[] {
  return Array.from({ length: count }, (_, index) => makeChunk({ ...spec, index }));
}
