/**
 * The loader's default chunk source: Folio's connector and pipeline, imported lazily so loading
 * `retrieval/` does not pull in PDFium and the Markdown stack until a document is read.
 */
import type { S3ConnectionOptions } from '../../connector/s3-client.ts';
import type { Chunk, FailureRecord } from '../../core/types.ts';
import type { ProcessOptions } from '../../pipeline/run/index.ts';

export interface PipelineChunksOptions extends ProcessOptions {
  readonly onFailure: (failure: FailureRecord) => void;
  /** How `s3://` inputs are reached. @default the AWS SDK's configuration */
  readonly s3?: Readonly<S3ConnectionOptions>;
}

/** Chunks of every document under `input` (file, folder, `s3://` prefix or URL), one document after another. */
export async function* pipelineChunks(input: string, options: Readonly<PipelineChunksOptions>): AsyncGenerator<Chunk> {
  const { onFailure, s3, ...processOptions } = options;
  const [{ sourcesFrom, isSourceFailure }, { processDocument }] = await Promise.all([
    import('../../connector/index.ts'),
    import('../../pipeline/run/index.ts'),
  ]);
  const signal = options.signal;
  for await (const item of sourcesFrom([input], { ...(signal ? { signal } : {}), ...(s3 ? { s3 } : {}) })) {
    if (isSourceFailure(item)) {
      onFailure(item);
      continue;
    }
    const result = await processDocument(item, processOptions);
    for (const failure of result.failures) onFailure(failure);
    yield* result.chunks;
  }
}
