/**
 * Folio as a LangChain.js document loader: files or folders in, one `Document` per chunk (or per
 * page) out, streamed by `lazyLoad()`. A document that cannot be read is reported (through
 * `onFailure`, or as a warning on stderr) and skipped; it never fails the load. The OCR engine
 * the `pipeline.ocr` factory creates is created once per load and closed when the load ends, so a
 * script that loads and returns exits by itself.
 */

import { BaseDocumentLoader } from '@langchain/core/document_loaders/base';
import type { Document } from '@langchain/core/documents';
import type { S3ConnectionOptions } from '../../connector/s3-client.ts';
import { ConfigurationError } from '../../core/errors.ts';
import type { Chunk, FailureRecord } from '../../core/types.ts';
import type { OcrEngine } from '../../inference/engine.ts';
import { defaultOcrFactory } from '../../pipeline/run/default-ocr.ts';
import type { ProcessOptions } from '../../pipeline/run/index.ts';
import type { FolioDocumentMetadata } from './metadata.ts';
import { chunksToPageDocuments, chunkToDocument } from './metadata.ts';
import { pipelineChunks } from './pipeline-source.ts';

export interface ChunkSourceContext {
  readonly signal?: AbortSignal;
  readonly onFailure: (failure: FailureRecord) => void;
  /** The load's one OCR engine (from `pipeline.ocr`), closed by the loader when the load ends. */
  readonly ocr?: () => Promise<OcrEngine>;
}

/**
 * Turns one input (file, folder or URL) into chunks. Chunks of one document must come out
 * together, in order; the default runs Folio's pipeline.
 */
export type ChunkSource = (input: string, context: ChunkSourceContext) => AsyncIterable<Chunk>;

export type LoaderMode = 'chunk' | 'page';

export interface FolioLoaderOptions {
  /** One input or several: files, folders (read recursively), `s3://bucket/prefix` addresses or http(s) URLs. */
  readonly inputs: string | readonly string[];
  /**
   * How `s3://` inputs are reached (endpoint, region, path style) when `chunks` is not given;
   * credentials come from the AWS SDK's own chain (environment, shared profile).
   * @default {} (the SDK's configuration: `AWS_ENDPOINT_URL_S3`, `AWS_REGION`, …)
   */
  readonly s3?: Readonly<S3ConnectionOptions>;
  /** One Document per chunk or per page. @default 'chunk' */
  readonly mode?: LoaderMode;
  /** Where chunks come from. @default Folio's pipeline (text layer where good, the embedded OCR elsewhere, as the CLI) */
  readonly chunks?: ChunkSource;
  /**
   * Pipeline options (`engine`, `ocr`, `password`, `maxTokens`, `countTokens`, …) when `chunks` is
   * not given. Pass the embedder's `maxTokens` and `countTokens` so chunks fit its window.
   * @default {} (`engine: 'auto'`: text layer where good, the embedded PaddleOCR engine elsewhere,
   * created on first use and closed when the load ends; `engine: 'text'` never runs OCR)
   */
  readonly pipeline?: Readonly<ProcessOptions>;
  /**
   * Told about every input, page or chunk that did not make it.
   * @default a `console.warn` line per failure, naming the document and the reason
   */
  readonly onFailure?: (failure: FailureRecord) => void;
  readonly signal?: AbortSignal;
}

/**
 * @example
 * const loader = new FolioLoader({ inputs: ['docs/'], mode: 'page' });
 * for await (const doc of loader.lazyLoad()) console.log(doc.metadata.source, doc.metadata.loc.pageNumber);
 */
export class FolioLoader extends BaseDocumentLoader {
  readonly inputs: readonly string[];
  readonly mode: LoaderMode;
  readonly #chunks: ChunkSource;
  readonly #onFailure: (failure: FailureRecord) => void;
  readonly #signal: AbortSignal | undefined;
  readonly #ocr: (() => Promise<OcrEngine>) | undefined;

  constructor(options: Readonly<FolioLoaderOptions>) {
    super();
    const { inputs, mode = 'chunk', chunks, pipeline = {}, onFailure = warnFailure, signal, s3 } = options;
    const list = typeof inputs === 'string' ? [inputs] : [...(inputs ?? [])];
    if (list.length === 0 || list.some((input) => typeof input !== 'string' || input === '')) {
      throw new ConfigurationError(
        'FOLIO_BAD_OPTION',
        `Expected \`inputs\` to be a path or URL, or a non-empty list of them, got \`${JSON.stringify(inputs)}\``,
      );
    }
    if (mode !== 'chunk' && mode !== 'page') {
      throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`mode\` to be \`chunk\` or \`page\`, got \`${String(mode)}\``);
    }
    this.inputs = list;
    this.mode = mode;
    this.#chunks = chunks ?? ((input, context) => pipelineChunks(input, { ...pipeline, ...context, ...(s3 === undefined ? {} : { s3 }) }));
    // The CLI's default: the embedded OCR under `auto` unless the caller gave one or `engine: 'text'`.
    this.#ocr = pipeline.ocr ?? (chunks === undefined ? defaultOcrFactory(pipeline.engine) : undefined);
    this.#onFailure = onFailure;
    this.#signal = signal;
  }

  /** Streams Documents as the pipeline produces them; memory stays at one document's chunks. */
  async *lazyLoad(): AsyncGenerator<Document<FolioDocumentMetadata>> {
    // One engine for the whole load, however many pages need OCR, closed when the load ends.
    const factory = this.#ocr;
    let created: Promise<OcrEngine> | undefined;
    const ocr = factory === undefined ? undefined : () => (created ??= factory());
    const context: ChunkSourceContext = { onFailure: this.#onFailure, ...(this.#signal ? { signal: this.#signal } : {}), ...(ocr ? { ocr } : {}) };
    try {
      yield* this.#load(context);
    } finally {
      if (created !== undefined) await (await created.catch(() => undefined))?.close();
    }
  }

  async *#load(context: ChunkSourceContext): AsyncGenerator<Document<FolioDocumentMetadata>> {
    for (const input of this.inputs) {
      this.#signal?.throwIfAborted();
      if (this.mode === 'chunk') {
        for await (const chunk of this.#chunks(input, context)) yield chunkToDocument(chunk);
        continue;
      }
      // Page mode needs all chunks of a document: group by docId as they stream past.
      let current: Chunk[] = [];
      for await (const chunk of this.#chunks(input, context)) {
        if (current.length > 0 && current[0]!.docId !== chunk.docId) {
          yield* chunksToPageDocuments(current);
          current = [];
        }
        current.push(chunk);
      }
      if (current.length > 0) yield* chunksToPageDocuments(current);
    }
  }

  /** Collects {@link lazyLoad}. */
  async load(): Promise<Document<FolioDocumentMetadata>[]> {
    const out: Document<FolioDocumentMetadata>[] = [];
    for await (const doc of this.lazyLoad()) out.push(doc);
    return out;
  }
}

/** The default `onFailure`: one line per failure, so nothing is dropped without a word. */
function warnFailure(failure: FailureRecord): void {
  console.warn(`FolioLoader: skipped ${failure.reason} [${failure.code}] (pass \`onFailure\` to handle failures yourself)`);
}
