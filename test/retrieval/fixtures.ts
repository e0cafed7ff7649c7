/** A small chunk index for the search and retriever tests: real mapping, real model, real server. */
import type { Client } from '@elastic/elasticsearch';
import type { Chunk } from '../../core/types.ts';
import type { Embedder } from '../../inference/embed/index.ts';
import { createLocalEmbedder } from '../../inference/embed/index.ts';
import { indexBody } from '../../mappings/index.ts';
import { chunkToDocument } from '../../pipeline/sink/documents.ts';
import { esClient, throwawayIndex } from '../support/index.ts';

const base = { contentHash: 'h', engine: 'text', tokens: 20, kinds: ['paragraph'] as const };

export const CHUNKS: readonly Chunk[] = [
  {
    ...base,
    id: 'typewriter',
    docId: 'd1',
    source: 'history.pdf',
    index: 0,
    pages: [1],
    headingPath: ['The Evolution of the Word Processor', 'Pre-Digital Era'],
    bboxes: [{ page: 1, bbox: [72, 100, 540, 180] }],
    text: 'Pre-Digital Era\nThe typewriter was patented in 1868 by Christopher Latham Sholes and changed written communication.',
  },
  {
    ...base,
    id: 'docs',
    docId: 'd1',
    source: 'history.pdf',
    index: 1,
    pages: [2],
    headingPath: ['The Modern Era'],
    bboxes: [{ page: 2, bbox: [72, 300, 540, 360] }],
    text: 'Google Docs (2006) introduced cloud-based editing so that teams could work on one file at the same time.',
  },
  {
    ...base,
    id: 'latex',
    docId: 'd1',
    source: 'history.pdf',
    index: 2,
    pages: [3, 4],
    headingPath: ['Specialized Tools'],
    bboxes: [],
    text: 'LaTeX focuses on precise formatting of mathematical equations for scientific papers.',
  },
  {
    ...base,
    id: 'table',
    docId: 'd2',
    source: 'otsl.pdf',
    index: 0,
    pages: [9],
    headingPath: ['5.1 Hyper Parameter Optimization'],
    bboxes: [{ page: 9, bbox: [10, 20, 30, 40] }],
    kinds: ['caption', 'table'],
    text: 'Table 1. OTSL 0.965 TEDs, inference time 2.73 s; HTML 0.969 TEDs, 5.39 s.',
  },
  {
    ...base,
    id: 'nuts',
    docId: 'd3',
    source: 'amt.pdf',
    index: 0,
    pages: [1],
    headingPath: ['Self-Locking Nuts'],
    bboxes: [],
    text: 'The elastic stop nut has a fiber locking collar that keeps it from loosening under vibration.',
  },
];

/** Creates `index` with Folio's chunk mapping and indexes {@link CHUNKS} with vectors. */
export async function indexFixture(client: Client, index: string, embedder: Embedder): Promise<void> {
  const body = indexBody('chunks', embedder.dims);
  await client.indices.create({ index, settings: body.settings, mappings: body.mappings });
  const vectors = await embedder.embed(CHUNKS.map((c) => c.text));
  const operations = CHUNKS.flatMap((chunk, i) => [
    { index: { _index: index, _id: chunk.id } },
    chunkToDocument({ ...chunk, vector: Array.from(vectors[i]!) }),
  ]);
  const response = await client.bulk({ operations, refresh: 'wait_for' });
  if (response.errors) throw new Error(JSON.stringify(response.items.find((i) => i.index?.error)));
}

/**
 * Inside a `describe`: the real embedder, and the fixture chunks indexed into a fresh index before
 * each test (deleted after it).
 */
export function indexedFixture(prefix: string): { readonly index: string; readonly embedder: Embedder } {
  const index = throwawayIndex(prefix);
  let embedder: Embedder | undefined;
  before(async () => {
    embedder = await createLocalEmbedder();
  });
  after(async () => {
    await embedder?.close();
  });
  beforeEach(async () => {
    await indexFixture(esClient(), index.name, embedder!);
  });
  return {
    get index() {
      return index.name;
    },
    get embedder() {
      return embedder!;
    },
  };
}
