/**
 * The bench corpus: chunks of the docling test PDFs (text layer only, no OCR), embedded and
 * indexed into a throwaway index with the real chunk mapping.
 */
import type { Client } from '@elastic/elasticsearch';
import type { Chunk } from '../../core/types.ts';
import type { Embedder } from '../../inference/embed/index.ts';
import { indexBody } from '../../mappings/index.ts';
import { chunkToDocument } from '../../pipeline/sink/documents.ts';
import type { ChunkSource } from '../../retrieval/index.ts';
import { pipelineChunks } from '../../retrieval/langchain/pipeline-source.ts';

/**
 * All chunks under `dir`, through `chunks` (default: the pipeline with `engine: 'text'`, chunks
 * sized in the embedder's own tokens to fit its window, so no chunk is embedded truncated).
 */
export async function loadCorpus(dir: string, embedder: Embedder, chunks?: ChunkSource): Promise<Chunk[]> {
  const source: ChunkSource =
    chunks ??
    ((input, context) =>
      pipelineChunks(input, {
        ...context,
        engine: 'text',
        maxTokens: embedder.maxTokens,
        countTokens: (text: string) => embedder.countTokens(text),
      }));
  const out: Chunk[] = [];
  for await (const chunk of source(dir, { onFailure: () => {} })) out.push(chunk);
  return out;
}

/** Creates `index` with the chunk mapping sized for `embedder` and bulk-indexes `chunks` with vectors. */
export async function indexCorpus(
  client: Client,
  index: string,
  chunks: readonly Chunk[],
  vectors: readonly Float32Array[],
  embedder: Embedder,
): Promise<void> {
  const body = indexBody('chunks', embedder.dims);
  await client.indices.create({ index, settings: body.settings, mappings: body.mappings });
  const operations = chunks.flatMap((chunk, i) => [
    { index: { _index: index, _id: chunk.id } },
    chunkToDocument({ ...chunk, vector: Array.from(vectors[i]!) }),
  ]);
  const response = await client.bulk({ operations, refresh: 'wait_for' });
  if (response.errors) {
    const first = response.items.find((item) => item.index?.error)?.index?.error;
    throw new Error(`bulk indexing into ${index} failed: ${first?.reason ?? 'unknown reason'}`);
  }
}
