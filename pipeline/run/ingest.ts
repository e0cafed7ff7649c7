/**
 * The main job: documents in, chunks indexed (Elasticsearch) or written (NDJSON). Embedding and
 * writing of one document overlap with the reading of the next (on this thread, or on `workers`
 * threads), so OCR, embedding and indexing keep each other busy while memory stays bounded.
 */
import { describeError } from '../../core/errors.ts';
import type { Chunk } from '../../core/types.ts';
import type { ProcessedDocument } from './process-document.ts';
import { processSources, validateWorkers, type ProcessSourcesOptions } from './process-sources.ts';
import { isDocument, isSourceFailure, type SourceItem } from './sources.ts';
import { SummaryBuilder, type RunSummary } from './summary.ts';

/** Where chunks go: see `pipeline/sink`. */
export interface ChunkSink {
  write(chunk: Chunk): Promise<void>;
  fail(record: import('../../core/types.ts').FailureRecord): Promise<void>;
  markDocument(doc: { docId: string; source: string; contentHash: string; pages: number; chunks: number; status: 'indexed' | 'failed'; reason?: string }): Promise<void>;
  isUnchanged?(docId: string, contentHash: string): Promise<boolean>;
}

/** Turns chunk texts into vectors: see `inference/embed`. */
export interface ChunkEmbedder {
  embed(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<Float32Array[]>;
}

export interface IngestOptions extends ProcessSourcesOptions {
  /**
   * Where chunks go. A promise lets the run start (worker threads load their modules) while the
   * sink connects and installs its indices; when it rejects, the run rejects with its error
   * before anything is written. A function is called once the workers have been spawned (see
   * `onStarted`), for a sink whose loading costs this thread CPU the workers' start should not
   * wait for; it is called once, and not at all when the run fails before it starts.
   */
  readonly sink: ChunkSink | PromiseLike<ChunkSink> | (() => ChunkSink | PromiseLike<ChunkSink>);
  /** Adds a `vector` to every chunk when present. */
  readonly embedder?: ChunkEmbedder;
  /** Chunks per embedding call. @default 32 */
  readonly embedBatchSize?: number;
  /** Skip documents whose content the sink already holds. @default true */
  readonly skipUnchanged?: boolean;
  readonly onDocument?: (result: ProcessedDocument) => void;
}

/**
 * @example
 * const sink = await createNdjsonSink({ outDir: 'folio-out' });
 * const summary = await ingest(sourcesFrom(['docs/']), { sink, ocr: () => createEngine('paddle') });
 * await sink.close();
 */
export async function ingest(sources: AsyncIterable<SourceItem>, options: Readonly<IngestOptions>): Promise<RunSummary> {
  const { embedder, embedBatchSize = 32, skipUnchanged = true, workers = 0, signal, onDocument, onStarted } = options;
  validateWorkers(workers);
  const { sink } = options;
  let start: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (start = resolve));
  const ready = typeof sink === 'function' ? started.then(() => sink()) : Promise.resolve(sink);
  // Awaited before the sink is first used; until then a rejection must not count as unhandled.
  ready.catch(() => undefined);
  const runStarted = (): void => {
    start();
    onStarted?.();
  };
  const summary = new SummaryBuilder();
  let writing: Promise<void> = Promise.resolve();

  async function write(result: ProcessedDocument): Promise<void> {
    const sink = await ready;
    const { doc } = result;
    for (const failure of result.failures) await sink.fail(failure);
    let chunks = result.chunks;
    if (embedder && chunks.length > 0) {
      try {
        chunks = await embedChunks(chunks, embedder, embedBatchSize, signal);
      } catch (error) {
        // Without vectors the chunks are still found by BM25: index them and say why kNN will miss them.
        const record = { source: doc.uri, docId: doc.id, stage: 'embed', code: 'FOLIO_EMBED_FAILED', reason: `${doc.uri}: embedding failed, indexed without vectors (${describeError(error)})`, at: new Date().toISOString() };
        await sink.fail(record);
        summary.failure(record);
      }
    }
    for (const chunk of chunks) await sink.write(chunk);
    const usable = result.ok && (chunks.length > 0 || result.failures.length === 0);
    await sink.markDocument({
      docId: doc.id,
      source: doc.uri,
      contentHash: doc.contentHash,
      pages: result.pages.length,
      chunks: chunks.length,
      status: usable ? 'indexed' : 'failed',
      reason: usable ? undefined : result.failures.map((f) => f.reason).join('; '),
    });
    summary.chunks(chunks.length, 0);
  }

  // Unchanged documents are skipped before they reach a worker.
  async function* changed(): AsyncGenerator<SourceItem> {
    for await (const item of sources) {
      signal?.throwIfAborted();
      if (isDocument(item) && skipUnchanged && (await (await ready).isUnchanged?.(item.id, item.contentHash))) {
        summary.unchanged();
        continue;
      }
      yield item;
    }
  }

  try {
    for await (const result of processSources(changed(), { ...options, onStarted: runStarted })) {
      if (isSourceFailure(result)) {
        await (await ready).fail(result.failure);
        summary.sourceFailed(result.failure);
        continue;
      }
      summary.document(result);
      onDocument?.(result);
      await writing;
      writing = write(result);
      // Awaited before the next write; until then a rejection (a sink that lost records) must not
      // count as unhandled and end the process before the run can report it.
      writing.catch(() => undefined);
    }
  } finally {
    await writing;
  }
  // A run of no documents still reports a sink that could not be created.
  start();
  await ready;
  return summary.build();
}

/** Vectors for `chunks`, `batchSize` texts per call, in order (`ingest` and `POST /v1/convert` share it). */
export async function embedChunks(chunks: readonly Chunk[], embedder: ChunkEmbedder, batchSize: number, signal?: AbortSignal): Promise<Chunk[]> {
  const out: Chunk[] = [];
  for (let i = 0; i < chunks.length; i += batchSize) {
    const batch = chunks.slice(i, i + batchSize);
    const vectors = await embedder.embed(batch.map((c) => c.text), { signal });
    batch.forEach((chunk, j) => out.push({ ...chunk, vector: Array.from(vectors[j]!) }));
  }
  return out;
}
