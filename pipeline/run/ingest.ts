/**
 * The main job: documents in, chunks indexed (Elasticsearch) or written (NDJSON). Embedding and
 * writing of one document overlap with the reading of the next (on this thread, or on `workers`
 * threads), so OCR, embedding and indexing keep each other busy while memory stays bounded.
 */
import { describeError } from '../../core/errors.ts';
import type { Chunk } from '../../core/types.ts';
import type { Embedder } from '../../inference/embed/types.ts';
import type { Sink } from '../sink/types.ts';
import type { ProcessedDocument } from './process-document.ts';
import { type ProcessSourcesOptions, processSources, validateWorkers } from './process-sources.ts';
import { isDocument, isUnreadSource, type SourceItem } from './sources.ts';
import { type RunSummary, SummaryBuilder } from './summary.ts';

/**
 * Where chunks go: the run's view of a `pipeline/sink` {@link Sink} (the caller closes it, and a
 * sink that keeps no state between runs may leave `isUnchanged` out).
 */
export type ChunkSink = Pick<Sink, 'write' | 'fail' | 'markDocument' | 'lost' | 'prune'> & Partial<Pick<Sink, 'isUnchanged' | 'recordVersion'>>;

/** What the connectors found of the inputs (see `connector/listing.ts`): what a sync may prune. */
export interface RunListing {
  readonly complete: boolean;
  readonly problems: readonly string[];
  readonly prefixes: readonly string[];
  /** Documents a connector found unchanged by their version and never read (see `SourceListing.unchanged`). */
  readonly unchangedCount?: number;
  isGone(uri: string): boolean;
}

/** Turns chunk texts into vectors: the one method of an `inference/embed` {@link Embedder} the run needs. */
export type ChunkEmbedder = Pick<Embedder, 'embed'>;

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
  /**
   * The listing the connectors filled in for `sources`. When given, documents recorded under its
   * folders and globs that are gone are removed from the sink at the end of a run that read
   * every input (never when the listing failed, the run was stopped, or the sink was lost).
   * @default undefined (nothing pruned)
   */
  readonly listing?: RunListing;
  /** Prune what `listing` says is gone. @default true */
  readonly prune?: boolean;
  readonly onDocument?: (result: ProcessedDocument) => void;
}

/**
 * @example
 * const sink = await createNdjsonSink({ outDir: 'folio-out' });
 * const summary = await ingest(sourcesFrom(['docs/']), { sink, ocr: () => createEngine('paddle') });
 * await sink.close();
 */
export async function ingest(sources: AsyncIterable<SourceItem>, options: Readonly<IngestOptions>): Promise<RunSummary> {
  const { embedder, embedBatchSize = 32, skipUnchanged = true, workers = 0, signal, onDocument, onStarted, listing, prune = true } = options;
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
        const record = {
          source: doc.uri,
          docId: doc.id,
          stage: 'embed',
          code: 'FOLIO_EMBED_FAILED',
          reason: `${doc.uri}: embedding failed, indexed without vectors (${describeError(error)})`,
          at: new Date().toISOString(),
        };
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
      version: doc.version,
      pages: result.pages.length,
      chunks: chunks.length,
      status: usable ? 'indexed' : 'failed',
      reason: usable ? undefined : result.failures.map((f) => f.reason).join('; '),
      ...(doc.parent === undefined ? {} : { parentId: doc.parent.id }),
      // Children an earlier version had and this one has not are removed by the sink.
      ...(result.children === undefined ? {} : { children: result.children.map((child) => child.doc.id) }),
    });
    summary.chunks(chunks.length, 0);
    // After the parent's record: a sink that lost the run between the two re-reads the whole message next time.
    for (const child of result.children ?? []) await write(child);
  }

  // Unchanged documents are skipped before they reach a worker.
  async function* changed(): AsyncGenerator<SourceItem> {
    for await (const item of sources) {
      signal?.throwIfAborted();
      // The sink gave up on its store: every further document would only add to the fallback file.
      const lost = (await ready).lost;
      if (lost !== undefined) {
        summary.stopped(lost);
        return;
      }
      if (isDocument(item) && skipUnchanged && (await (await ready).isUnchanged?.(item.id, item.contentHash))) {
        // The same bytes under a new version (uploaded again): remember it, or every run downloads it.
        if (item.version !== undefined) await (await ready).recordVersion?.(item.id, item.version);
        summary.unchanged();
        continue;
      }
      yield item;
    }
  }

  try {
    for await (const result of processSources(changed(), { ...options, onStarted: runStarted })) {
      if (isUnreadSource(result)) {
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
  for (let i = 0; i < (listing?.unchangedCount ?? 0); i++) summary.unchanged();
  // A run of no documents still reports a sink that could not be created.
  start();
  const done = await ready;
  if (done.lost !== undefined) summary.stopped(done.lost);
  else if (listing !== undefined && prune && done.prune !== undefined) {
    if (!listing.complete) summary.pruneSkipped(`not pruned: ${listing.problems.join('; ')}`);
    else summary.removed((await done.prune({ prefixes: listing.prefixes, isGone: (uri) => listing.isGone(uri) })).removed);
  }
  return summary.build();
}

/** Vectors for `chunks`, `batchSize` texts per call, in order (`ingest` and `POST /v1/convert` share it). */
export async function embedChunks(chunks: readonly Chunk[], embedder: ChunkEmbedder, batchSize: number, signal?: AbortSignal): Promise<Chunk[]> {
  const out: Chunk[] = [];
  for (let i = 0; i < chunks.length; i += batchSize) {
    const batch = chunks.slice(i, i + batchSize);
    const vectors = await embedder.embed(
      batch.map((c) => c.text),
      { signal },
    );
    batch.forEach((chunk, j) => out.push({ ...chunk, vector: Array.from(vectors[j]!) }));
  }
  return out;
}
