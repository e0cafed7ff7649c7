/**
 * The loader's default chunk source: Folio's connector and pipeline, imported lazily so loading
 * `retrieval/` does not pull in PDFium and the Markdown stack until a document is read.
 */
import type { Chunk, FailureRecord } from '../../core/types.ts';
import type { ProcessOptions } from '../../pipeline/run/index.ts';

export interface PipelineChunksOptions extends ProcessOptions {
  readonly onFailure: (failure: FailureRecord) => void;
}

/** Chunks of every document under `input` (file, folder or URL), one document after another. */
export async function* pipelineChunks(input: string, options: Readonly<PipelineChunksOptions>): AsyncGenerator<Chunk> {
  const { onFailure, ...processOptions } = options;
  const [{ sourcesFrom, isSourceFailure }, { processDocument }] = await Promise.all([
    import('../../connector/index.ts'),
    import('../../pipeline/run/index.ts'),
  ]);
  const signal = options.signal;
  for await (const item of sourcesFrom([input], signal ? { signal } : {})) {
    if (isSourceFailure(item)) {
      onFailure(item);
      continue;
    }
    const result = await processDocument(item, processOptions);
    for (const failure of result.failures) onFailure(failure);
    yield* result.chunks;
  }
}
