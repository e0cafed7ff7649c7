/**
 * The embedded default sink: files instead of a cluster. `bulk.ndjson` holds the same documents
 * the Elasticsearch sink would index, as `_bulk` input (`curl -H 'Content-Type: application/x-ndjson'
 * --data-binary @bulk.ndjson URL/_bulk`); the `.jsonl` files hold Folio's own records (camelCase, as
 * in `core/types.ts`) for loaders and for people.
 */

import { once } from 'node:events';
import type { WriteStream } from 'node:fs';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigurationError, describeError, IndexingError } from '../../core/errors.ts';
import type { Chunk, FailureRecord } from '../../core/types.ts';
import { DEFAULT_CHUNKS_INDEX } from '../../mappings/index.ts';
import { chunkToDocument } from './documents.ts';
import { NdjsonPrevious, PARTIAL } from './ndjson-sync.ts';
import { SinkState } from './state.ts';
import type { DocumentMark, PruneResult, PruneScope, Sink, SinkStats } from './types.ts';

export interface NdjsonSinkOptions {
  /** The folder for `bulk.ndjson`, `chunks.jsonl`, `failures.jsonl` and `documents.jsonl`; created if missing. */
  readonly outDir: string;
  /** The `_index` named in the bulk action lines. @default 'folio-chunks' */
  readonly index?: string;
  /** Append to existing files instead of starting them afresh. @default false */
  readonly append?: boolean;
  /**
   * Sync with the files of the previous run in `outDir`: documents unchanged since are skipped
   * and their lines carried forward, documents gone from their source are left out (see
   * `ndjson-sync.ts`). Ignored with `append`.
   * @default false
   */
  readonly sync?: boolean;
}

/** The file names inside `outDir`. */
export const NDJSON_FILES = {
  bulk: 'bulk.ndjson',
  chunks: 'chunks.jsonl',
  failures: 'failures.jsonl',
  documents: 'documents.jsonl',
} as const;

/**
 * Write chunks as files.
 *
 * @example
 * const sink = await createNdjsonSink({ outDir: 'folio-out' })
 * await sink.write(chunk)
 * await sink.close()
 */
export async function createNdjsonSink(options: Readonly<NdjsonSinkOptions>): Promise<Sink> {
  const { outDir, index = DEFAULT_CHUNKS_INDEX, append = false, sync = false } = options;
  if (typeof outDir !== 'string' || outDir === '') {
    throw new ConfigurationError('FOLIO_SINK_BAD_OPTION', `Expected \`outDir\` to be a folder path, got \`${String(outDir)}\` (${typeof outDir})`);
  }
  try {
    await mkdir(outDir, { recursive: true });
    const previous = sync && !append ? await NdjsonPrevious.load(outDir, NDJSON_FILES.documents) : undefined;
    const open = async (name: string): Promise<WriteStream> => {
      // 1 MiB buffers: a chunk's two lines no longer wait for the disk every few kilobytes.
      const path = join(outDir, previous === undefined ? name : `${name}${PARTIAL}`);
      const stream = createWriteStream(path, { flags: append ? 'a' : 'w', highWaterMark: 1 << 20 });
      await once(stream, 'open');
      return stream;
    };
    const streams = {
      bulk: await open(NDJSON_FILES.bulk),
      chunks: await open(NDJSON_FILES.chunks),
      failures: await open(NDJSON_FILES.failures),
      documents: await open(NDJSON_FILES.documents),
    };
    return new NdjsonSink(streams, index, outDir, previous);
  } catch (error) {
    throw new ConfigurationError('FOLIO_SINK_OUT_DIR', `Cannot write to \`outDir\` ${outDir}: ${describeError(error)}`, { cause: error, meta: { outDir } });
  }
}

type Streams = Readonly<Record<keyof typeof NDJSON_FILES, WriteStream>>;

class NdjsonSink implements Sink {
  readonly #streams: Streams;
  readonly #index: string;
  readonly #outDir: string;
  readonly #state = new SinkState(1);
  readonly #previous: NdjsonPrevious | undefined;
  #closed: Promise<SinkStats> | undefined;
  /** A failed file write (disk full, folder removed): every later call rejects with it. */
  #error: IndexingError | undefined;

  constructor(streams: Streams, index: string, outDir: string, previous: NdjsonPrevious | undefined) {
    this.#previous = previous;
    this.#streams = streams;
    this.#index = index;
    this.#outDir = outDir;
    for (const [file, stream] of Object.entries(streams)) {
      stream.on('error', (error) => {
        this.#error ??= new IndexingError('FOLIO_NDJSON_WRITE', `Cannot write ${join(outDir, NDJSON_FILES[file as keyof Streams])}: ${describeError(error)}`, {
          cause: error,
        });
      });
    }
  }

  async write(chunk: Chunk): Promise<void> {
    this.#open(`write(${chunk.id})`);
    this.#previous?.touch(chunk.docId);
    const action = JSON.stringify({ index: { _index: this.#index, _id: chunk.id } });
    const bulk = `${action}\n${JSON.stringify(chunkToDocument(chunk))}\n`;
    this.#state.written(chunk.docId, Buffer.byteLength(bulk));
    await this.#put('bulk', bulk);
    await this.#put('chunks', `${JSON.stringify(chunk)}\n`);
    this.#state.indexed(chunk.docId);
  }

  async fail(record: FailureRecord): Promise<void> {
    this.#open('fail()');
    this.#previous?.touch(record.docId);
    this.#state.failure(record);
    await this.#put('failures', `${JSON.stringify(record)}\n`);
    this.#state.stored(join(this.#outDir, NDJSON_FILES.failures), record.code);
  }

  async markDocument(doc: DocumentMark): Promise<void> {
    this.#open('markDocument()');
    this.#previous?.touch(doc.docId);
    await this.#put('documents', `${JSON.stringify({ ...doc, updatedAt: new Date().toISOString() })}\n`);
  }

  /** Without `sync`, files keep no state between runs: every document is processed again. */
  async isUnchanged(docId: string, contentHash: string): Promise<boolean> {
    return this.#previous?.isUnchanged(docId, contentHash) ?? false;
  }

  async recordedVersion(docId: string): Promise<string | undefined> {
    return this.#previous?.recordedVersion(docId);
  }

  async recordVersion(docId: string, version: string): Promise<void> {
    this.#previous?.recordVersion(docId, version);
  }

  async prune(scope: Readonly<PruneScope>): Promise<PruneResult> {
    return this.#previous?.prune(scope) ?? { removed: 0, sources: [] };
  }

  close(): Promise<SinkStats> {
    this.#closed ??= (async () => {
      const previous = this.#previous;
      if (previous !== undefined && this.#error === undefined) {
        // Unchanged documents keep their lines: the files hold what the inputs hold now.
        await previous.copy(
          NDJSON_FILES.bulk,
          2,
          (doc) => doc['doc_id'],
          (text) => this.#put('bulk', text),
        );
        await previous.copy(
          NDJSON_FILES.chunks,
          1,
          (chunk) => chunk['docId'],
          (text) => this.#put('chunks', text),
        );
        await previous.copy(
          NDJSON_FILES.failures,
          1,
          (record) => record['docId'],
          (text) => this.#put('failures', text),
        );
        await previous.copy(
          NDJSON_FILES.documents,
          1,
          (record) => record['docId'],
          (text) => this.#put('documents', text),
          true,
        );
      }
      await Promise.all(
        Object.values(this.#streams).map(async (stream) => {
          if (stream.destroyed) return;
          const finished = once(stream, 'finish').catch(() => undefined);
          stream.end();
          await Promise.race([finished, once(stream, 'close').catch(() => undefined)]);
        }),
      );
      if (this.#error !== undefined) throw this.#error;
      await previous?.commit(Object.values(NDJSON_FILES));
      return this.#state.stats();
    })();
    return this.#closed;
  }

  #open(what: string): void {
    if (this.#closed !== undefined) throw new IndexingError('FOLIO_SINK_CLOSED', `${what} after close() of the NDJSON sink at ${this.#outDir}`);
  }

  /** Write with backpressure: wait for `drain` when the stream's buffer is full. */
  async #put(file: keyof Streams, text: string): Promise<void> {
    if (this.#error !== undefined) throw this.#error;
    const stream = this.#streams[file];
    if (!stream.write(text)) await drainedOrClosed(stream);
    if (this.#error !== undefined) throw this.#error;
  }
}

/**
 * Resolves on `drain` or `close`, whichever comes first, and removes both listeners (racing two
 * `once()` promises leaves the loser's listeners behind, one more per wait).
 */
function drainedOrClosed(stream: WriteStream): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}
