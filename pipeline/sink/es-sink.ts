/**
 * The Elasticsearch sink: chunks are buffered and sent with `_bulk` (flushed by size and by time,
 * a bounded number of requests in flight, `write` waiting for a free slot), transient faults are
 * retried with backoff, and every chunk that still cannot be indexed becomes a failure record in
 * the failures index, or in a local JSONL file when that is unreachable too. Nothing is lost
 * silently: `indexed + failed` always equals the number of chunks written.
 */
import { Client } from '@elastic/elasticsearch';
import { ConfigurationError, describeError, errorCode, IndexingError } from '../../core/errors.ts';
import { RetriesExhausted, withRetry } from '../../core/retry.ts';
import type { Chunk, FailureRecord } from '../../core/types.ts';
import { DEFAULT_CHUNKS_INDEX, DEFAULT_DIMS, DEFAULT_DOCUMENTS_INDEX, DEFAULT_FAILURES_INDEX } from '../../mappings/index.ts';
import type { BulkOperation, BulkOutcome } from './bulk.ts';
import { sendBulk } from './bulk.ts';
import type { DocumentRecord } from './documents.ts';
import { chunkToDocument, documentRecord, documentRecordId, failureId, failureToDocument } from './documents.ts';
import { SinkIndices } from './es-indices.ts';
import type { EsSinkOptions } from './es-options.ts';
import { validateEsSinkOptions } from './es-options.ts';
import { appendFailures } from './fallback.ts';
import { clearResolvedFailures, pruneGone, removeOrphans } from './prune.ts';
import { errorKind } from './retry.ts';
import { deleteStaleChunks } from './stale.ts';
import { SinkState } from './state.ts';
import type { DocumentMark, PruneResult, PruneScope, Sink, SinkStats } from './types.ts';

/** The cluster's health, retried like a bulk request; throws the last error. */
async function checkCluster(client: Client, retries: number, baseMs: number, maxMs: number, signal?: AbortSignal): Promise<void> {
  try {
    await withRetry(() => client.cluster.health({ timeout: '5s' }, signal === undefined ? {} : { signal }), {
      retries,
      baseDelayMs: baseMs,
      maxDelayMs: maxMs,
      signal,
    });
  } catch (error) {
    throw error instanceof RetriesExhausted ? error.cause : error;
  }
}

/** Where the client points, for messages. */
function describeNodes(client: Client, url: string | undefined): string {
  if (url !== undefined) return url;
  const nodes = client.connectionPool.connections.map((connection) => connection.url.origin);
  return nodes.length > 0 ? nodes.join(', ') : 'the configured client';
}

/**
 * Connect, check the cluster answers (else a ConfigurationError `FOLIO_ES_UNREACHABLE` naming
 * the URL) and check or install the mappings (a new index is created in the background, see
 * `es-indices.ts`); then stream chunks into the index.
 *
 * @example
 * const sink = await createEsSink({ url: 'http://127.0.0.1:9200', dims: 384 })
 * for (const chunk of chunks) await sink.write(chunk)
 * const stats = await sink.close()
 */
export async function createEsSink(options: Readonly<EsSinkOptions>): Promise<Sink> {
  validateEsSinkOptions(options);
  const { url, retries = 3, retryDelayMs = 500, maxRetryDelayMs = 10_000, requestTimeoutMs = 30_000, signal } = options;
  // Our own retry loop counts and bounds retries, so the client must not retry underneath it.
  const client = options.client ?? new Client({ node: url!, maxRetries: 0, requestTimeout: requestTimeoutMs });
  const where = describeNodes(client, url);
  try {
    await checkCluster(client, retries, retryDelayMs, maxRetryDelayMs, signal);
  } catch (error) {
    if (options.client === undefined) await client.close();
    throw new ConfigurationError('FOLIO_ES_UNREACHABLE', `Elasticsearch at ${where} is unreachable: ${errorKind(error)}: ${describeError(error)}`, {
      cause: error,
      meta: { url: where },
    });
  }
  const sink = new EsSink(client, options, where);
  try {
    await sink.prepare();
  } catch (error) {
    if (options.client === undefined) await client.close();
    throw error;
  }
  return sink;
}

interface ChunkOperation extends BulkOperation {
  readonly chunk: Chunk;
  readonly bytes: number;
}

type MetaOperation = BulkOperation & ({ readonly failure: FailureRecord } | { readonly document: DocumentRecord });

class EsSink implements Sink {
  readonly #client: Client;
  readonly #ownsClient: boolean;
  readonly #where: string;
  readonly #index: string;
  readonly #documentsIndex: string;
  readonly #failuresIndex: string;
  readonly #flushBytes: number;
  readonly #fallbackFile: string;
  readonly #refreshOnClose: boolean;
  readonly #signal: AbortSignal | undefined;
  readonly #send: { retries: number; retryDelayMs: number; maxRetryDelayMs: number; signal?: AbortSignal | undefined; onRetry: () => void };
  readonly #state: SinkState;
  readonly #timer: NodeJS.Timeout;
  readonly #indices: SinkIndices;
  #buffer: ChunkOperation[] = [];
  #bufferBytes = 0;
  #meta: MetaOperation[] = [];
  #closed: Promise<SinkStats> | undefined;
  /** Document count of each document's previous record, from `isUnchanged` (null: none). */
  readonly #previousChunks = new Map<string, number | null>();
  /** Documents whose chunks from a longer earlier version must go: docId → new chunk count. */
  #stale = new Map<string, number>();
  /** Attachments of each document's previous record, from `isUnchanged` (null: none). */
  readonly #previousChildren = new Map<string, readonly string[] | null>();
  /** Documents whose earlier version may have had attachments this one lacks: docId → its children now. */
  #orphans = new Map<string, readonly string[]>();
  /** Documents indexed by this run: dead letters of earlier runs about them are cleared on close. */
  readonly #succeeded = new Set<string>();
  /** When this sink started: dead letters older than this are from earlier runs. */
  readonly #startedAt = new Date().toISOString();
  /** Documents removed by {@link prune}: the chunk index is refreshed on close for them too. */
  #removed = 0;

  constructor(client: Client, options: Readonly<EsSinkOptions>, where: string) {
    const {
      index = DEFAULT_CHUNKS_INDEX,
      // Each chunk index keeps its own sync state: a document indexed into one index is not
      // "unchanged" for another.
      documentsIndex = index === DEFAULT_CHUNKS_INDEX ? DEFAULT_DOCUMENTS_INDEX : `${index}-documents`,
      failuresIndex = index === DEFAULT_CHUNKS_INDEX ? DEFAULT_FAILURES_INDEX : `${index}-failures`,
      dims,
      flushBytes = 5_000_000,
      flushIntervalMs = 1000,
      concurrency = 2,
      retries = 3,
      retryDelayMs = 500,
      maxRetryDelayMs = 10_000,
      fallbackFile = 'folio-out/failures.jsonl',
      refreshOnClose = true,
      signal,
    } = options;
    this.#client = client;
    this.#ownsClient = options.client === undefined;
    this.#where = where;
    this.#index = index;
    this.#documentsIndex = documentsIndex;
    this.#failuresIndex = failuresIndex;
    this.#indices = new SinkIndices(client, { index, documentsIndex, failuresIndex }, dims);
    this.#flushBytes = flushBytes;
    this.#fallbackFile = fallbackFile;
    this.#refreshOnClose = refreshOnClose;
    this.#signal = signal;
    this.#state = new SinkState(concurrency);
    this.#send = { retries, retryDelayMs, maxRetryDelayMs, signal, onRetry: () => this.#state.retried() };
    this.#timer = setInterval(() => this.#tick(), flushIntervalMs);
    // The timer only flushes what is buffered; it must not keep a finished process alive.
    this.#timer.unref();
  }

  /** Check or start installing the indices (see {@link SinkIndices.prepare}). */
  prepare(): Promise<void> {
    return this.#indices.prepare();
  }

  get lost(): string | undefined {
    return this.#state.lost;
  }

  async write(chunk: Chunk): Promise<void> {
    if (this.#closed !== undefined) throw new IndexingError('FOLIO_SINK_CLOSED', `write(${chunk.id}) after close()`, { meta: { chunkId: chunk.id } });
    this.#signal?.throwIfAborted();
    // The chunk index cannot be installed: stop the run, as a configuration problem.
    if (this.#indices.failure !== undefined) throw this.#indices.failure;
    // Without a configured size the first vector decides; a chunk without one changes nothing.
    // Not awaited: a new index is created while chunks are buffered, and the flush waits for it.
    void this.#indices.chunks(chunk.vector?.length ?? DEFAULT_DIMS).catch(() => undefined);
    const action = JSON.stringify({ index: { _index: this.#index, _id: chunk.id } });
    const payload = `${action}\n${JSON.stringify(chunkToDocument(chunk))}`;
    const bytes = Buffer.byteLength(payload) + 1;
    this.#state.written(chunk.docId, bytes);
    this.#buffer.push({ payload, chunk, bytes });
    this.#bufferBytes += bytes;
    if (this.#bufferBytes >= this.#flushBytes) await this.#flush();
  }

  async fail(record: FailureRecord): Promise<void> {
    this.#state.failure(record);
    this.#queueFailure(record);
    if (this.#meta.length >= 500) await this.#flushMeta();
  }

  async markDocument(doc: DocumentMark): Promise<void> {
    this.#state.mark(doc, (mark, failedChunks, reason) => this.#markSettled(mark, failedChunks, reason));
  }

  async isUnchanged(docId: string, contentHash: string): Promise<boolean> {
    const record = await this.#record(docId);
    return record !== undefined && record.status === 'indexed' && record.content_hash === contentHash;
  }

  async recordedVersion(docId: string): Promise<string | undefined> {
    const record = await this.#record(docId);
    return record !== undefined && record.status === 'indexed' ? record.source_version : undefined;
  }

  async recordVersion(docId: string, version: string): Promise<void> {
    try {
      await this.#client.update({ index: this.#documentsIndex, id: documentRecordId(this.#index, docId), doc: { source_version: version } }, { ignore: [404] });
    } catch {
      // Not recorded: the next run downloads the object once more and finds it unchanged again.
    }
  }

  /** The sync record of `docId` from an earlier run; undefined when there is none or it cannot be read. */
  async #record(docId: string): Promise<DocumentRecord | undefined> {
    if (this.#indices.freshDocuments) {
      // A documents index created by this run holds nothing from an earlier one.
      this.#previousChunks.set(docId, null);
      this.#previousChildren.set(docId, null);
      return undefined;
    }
    try {
      const found = await withRetry(
        () => this.#client.get<DocumentRecord>({ index: this.#documentsIndex, id: documentRecordId(this.#index, docId) }, { ignore: [404] }),
        { retries: this.#send.retries, baseDelayMs: this.#send.retryDelayMs, maxDelayMs: this.#send.maxRetryDelayMs, signal: this.#signal },
      );
      const record = found.found ? found._source : undefined;
      this.#previousChunks.set(docId, record?.chunks ?? null);
      this.#previousChildren.set(docId, record?.children ?? null);
      return record;
    } catch (error) {
      // Still unreachable after the retries: the cluster is gone, and the run should stop feeding it.
      if (error instanceof RetriesExhausted)
        this.#lose(`${errorKind(error.cause)}: ${describeError(error.cause)} (reading sync state, ${error.message.split(':')[0]})`);
      // Otherwise not knowing only costs reprocessing (indexing is idempotent), never correctness.
      return undefined;
    }
  }

  async prune(scope: Readonly<PruneScope>): Promise<PruneResult> {
    if (this.#state.lost !== undefined) return { removed: 0, sources: [] };
    try {
      await this.#indices.meta();
      const result = await pruneGone(
        this.#client,
        { index: this.#index, documentsIndex: this.#documentsIndex, failuresIndex: this.#failuresIndex },
        scope,
        this.#send,
      );
      this.#removed += result.removed;
      return result;
    } catch (error) {
      // Gone documents stay findable until a later run prunes them: wrong but visible, so recorded.
      await this.fail({
        source: scope.prefixes.join(', '),
        stage: 'index',
        code: 'FOLIO_ES_PRUNE',
        reason: `could not remove gone documents from ${this.#index} at ${this.#where}: ${describeError(error)}`,
        at: new Date().toISOString(),
      });
      return { removed: 0, sources: [] };
    }
  }

  close(): Promise<SinkStats> {
    this.#closed ??= this.#close();
    return this.#closed;
  }

  async #close(): Promise<SinkStats> {
    clearInterval(this.#timer);
    await this.#flush();
    await this.#state.drained();
    if (this.#state.lost === undefined) await this.#deleteStale();
    if (this.#state.lost === undefined) await this.#deleteOrphans();
    // The chunk index is final now: make it searchable while the document and failure records
    // (other indices) are sent, rather than after them.
    await Promise.all([this.#flushMeta().then(() => this.#state.drained()), this.#finishChunks()]);
    // Once this run's dead letters are stored, older ones about documents that now succeed go.
    if (this.#state.lost === undefined && this.#succeeded.size > 0) {
      const names = { index: this.#index, documentsIndex: this.#documentsIndex, failuresIndex: this.#failuresIndex };
      for (const record of await clearResolvedFailures(this.#client, names, [...this.#succeeded], this.#startedAt, this.#send)) this.#queueFailure(record);
      await this.#flushMeta();
      await this.#state.drained();
    }
    if (this.#ownsClient) await this.#client.close();
    return this.#state.stats();
  }

  /** One refresh, so a search right after the run sees what it indexed and not what it removed. */
  async #finishChunks(): Promise<void> {
    if (!this.#refreshOnClose || this.#state.lost !== undefined || this.#state.indexedCount + this.#removed === 0) return;
    await this.#client.indices.refresh({ index: this.#index }).catch(() => undefined);
  }

  /** Give up on the cluster: later batches go straight to the fallback file, unsent. */
  #lose(reason: string): void {
    this.#state.lose(`Elasticsearch at ${this.#where} was lost: ${reason}`);
  }

  /** Outcomes for a batch not sent because the cluster was lost earlier in the run. */
  #unsent(count: number): BulkOutcome[] {
    const outcome: BulkOutcome = { ok: false, code: 'FOLIO_ES_LOST', reason: `not sent: ${this.#state.lost ?? 'the cluster was lost'}` };
    return new Array<BulkOutcome>(count).fill(outcome);
  }

  /** A whole request that failed on transport past its retries means the cluster is gone. */
  #checkLost(outcomes: readonly BulkOutcome[]): void {
    const transport = outcomes.find((outcome) => !outcome.ok && outcome.code === 'FOLIO_ES_TRANSPORT');
    if (transport !== undefined && !transport.ok) this.#lose(transport.reason);
  }

  #tick(): void {
    // Errors cannot escape: sends turn every fault into outcomes.
    void this.#flush().then(() => this.#flushMeta());
  }

  /** Hand the buffer to a free slot; resolves once the request is on its way. */
  async #flush(): Promise<void> {
    if (this.#buffer.length === 0) return;
    const batch = this.#buffer;
    this.#buffer = [];
    this.#bufferBytes = 0;
    await this.#state.run(async () => {
      let outcomes: BulkOutcome[];
      if (this.#state.lost !== undefined) {
        outcomes = this.#unsent(batch.length);
      } else {
        try {
          await this.#indices.chunks();
          outcomes = await sendBulk(this.#client, batch, this.#send);
          this.#checkLost(outcomes);
        } catch (error) {
          // The index could not be created: every chunk of the batch is recorded, none lost.
          outcomes = batch.map(() => ({ ok: false, code: errorCode(error), reason: describeError(error) }));
        }
      }
      this.#settleChunks(batch, outcomes);
    });
  }

  #settleChunks(batch: readonly ChunkOperation[], outcomes: readonly BulkOutcome[]): void {
    batch.forEach(({ chunk }, i) => {
      const outcome = outcomes[i] ?? { ok: false, code: 'FOLIO_ES_BULK_REJECTED', reason: 'no outcome' };
      if (outcome.ok) {
        this.#state.indexed(chunk.docId);
        return;
      }
      const record: FailureRecord = {
        source: chunk.source,
        docId: chunk.docId,
        ...(chunk.pages[0] === undefined ? {} : { pageNumber: chunk.pages[0] }),
        chunkId: chunk.id,
        stage: 'index',
        code: outcome.code,
        reason: `${chunk.source}: chunk ${chunk.index} (pages ${chunk.pages.join(', ')}) not indexed into ${this.#index} at ${this.#where}: ${outcome.reason}`,
        at: new Date().toISOString(),
      };
      this.#state.chunkFailed(chunk.docId, record);
      this.#queueFailure(record);
    });
  }

  #queueFailure(record: FailureRecord): void {
    const action = JSON.stringify({ index: { _index: this.#failuresIndex, _id: failureId(record, this.#index) } });
    this.#meta.push({ payload: `${action}\n${JSON.stringify(failureToDocument(record, this.#index))}`, failure: record });
  }

  #markSettled(mark: DocumentMark, failedChunks: number, reason: string | undefined): void {
    const record = documentRecord(mark, { index: this.#index, failedChunks, ...(reason === undefined ? {} : { reason }) });
    const action = JSON.stringify({ index: { _index: this.#documentsIndex, _id: documentRecordId(this.#index, mark.docId) } });
    this.#meta.push({ payload: `${action}\n${JSON.stringify(record)}`, document: record });
    if (record.status === 'indexed') this.#succeeded.add(mark.docId);
    const previous = this.#previousChunks.get(mark.docId);
    // Only a document that had more chunks before (or of which we know nothing) can have stale ones.
    if (record.status === 'indexed' && (previous === undefined || (previous !== null && previous > mark.chunks))) {
      this.#stale.set(mark.docId, mark.chunks);
    }
    // Attachments are known by the previous record, or (a child document, never asked about) looked up on close.
    const children = mark.children ?? [];
    const before = this.#previousChildren.get(mark.docId);
    if (before === undefined || before?.some((id) => !children.includes(id))) this.#orphans.set(mark.docId, children);
  }

  /** Send failure and document records; what the cluster will not take goes to the fallback file. */
  async #flushMeta(): Promise<void> {
    if (this.#meta.length === 0) return;
    const batch = this.#meta;
    this.#meta = [];
    await this.#state.run(async () => {
      let outcomes: BulkOutcome[];
      if (this.#state.lost !== undefined) {
        outcomes = this.#unsent(batch.length);
      } else {
        try {
          await this.#indices.meta();
          outcomes = await sendBulk(this.#client, batch, this.#send);
          this.#checkLost(outcomes);
        } catch (error) {
          outcomes = batch.map(() => ({ ok: false, code: 'FOLIO_ES_MAPPING', reason: describeError(error) }));
        }
      }
      const lost: FailureRecord[] = [];
      batch.forEach((operation, i) => {
        const outcome = outcomes[i];
        if (outcome === undefined) return;
        if (outcome.ok) {
          if ('failure' in operation) this.#state.stored(`index ${this.#failuresIndex}`, operation.failure.code);
          return;
        }
        if ('failure' in operation) {
          lost.push(operation.failure);
        } else {
          const { doc_id: docId, source } = operation.document;
          lost.push({
            source,
            docId,
            stage: 'index',
            code: 'FOLIO_ES_DOCUMENT_STATE',
            reason: `${source}: sync state not saved in ${this.#documentsIndex} (${outcome.reason}); the document will be processed again next run`,
            at: new Date().toISOString(),
          });
        }
      });
      await this.#state.fallback(appendFailures(this.#fallbackFile, lost), this.#fallbackFile, lost.length);
      for (const record of lost) this.#state.stored(this.#fallbackFile, record.code);
    });
  }

  /** Remove attachments that new versions of documents no longer have; a failure is recorded, not thrown. */
  async #deleteOrphans(): Promise<void> {
    const entries = [...this.#orphans];
    this.#orphans = new Map();
    if (entries.length === 0) return;
    const names = { index: this.#index, documentsIndex: this.#documentsIndex, failuresIndex: this.#failuresIndex };
    for (const record of await removeOrphans(this.#client, names, entries, this.#send)) this.#queueFailure(record);
  }

  /** Delete chunks that shorter new versions of documents no longer have; a failure is recorded, not thrown. */
  async #deleteStale(): Promise<void> {
    const entries = [...this.#stale];
    this.#stale = new Map();
    for (const record of await deleteStaleChunks(this.#client, this.#index, entries, this.#send)) this.#queueFailure(record);
  }
}
