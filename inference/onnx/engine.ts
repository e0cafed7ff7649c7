/**
 * The `onnx` OCR engine: a folio-ocr model folder run by onnxruntime-node, pages decoded in
 * batches with lossless FastMTP speculative decoding.
 */
import { ConfigurationError, InferenceError } from '../../core/errors.ts';
import type { OcrEngine, OcrPageResult, PageImage, RecognizeOptions } from '../engine.ts';
import type { Device } from '../runtime/ort.ts';
import { DEVICES } from '../runtime/ort.ts';
import { inBatches } from './batches.ts';
import type { BlockPageDecode } from './blocks.ts';
import { createBlockReader } from './blocks.ts';
import type { PageDecode } from './decode.ts';
import { decode } from './decode.ts';
import { loadModel } from './load.ts';

export interface OnnxEngineOptions {
  /** The model folder (folio-model.json, tokenizer.json, *.onnx). */
  readonly modelDir: string;
  /** Execution provider. @default 'cpu' */
  readonly device?: Device;
  /** Draft tokens per step, 0 for plain greedy. @default the model's `draft_head.K` */
  readonly draftK?: number;
  /** Pages decoded together. @default 8 */
  readonly batchSize?: number;
  /** Tokens per page. @default the model's `generation.max_new_tokens` */
  readonly maxTokens?: number;
  /** CPU threads per session; 0 lets onnxruntime decide. @default 0 */
  readonly threads?: number;
  /** Largest page side accepted, in pixels. @default 16384 */
  readonly maxImageSide?: number;
  /** Bit-exact layout: greedy and speculative decoding alike bit for bit (see README.md). @default true */
  readonly exact?: boolean;
  /**
   * What a view holds; `text-block` finds the page's lines with paddle's detector and reads them
   * view by view (blocks.ts). @default the model's `input` (`page` when it says nothing)
   */
  readonly input?: 'page' | 'text-block';
  /** Line views decoded together, for `text-block` models. @default 16 */
  readonly viewBatchSize?: number;
}

/**
 * Load a model and return an {@link OcrEngine} over it.
 *
 * @example
 * const engine = await createOnnxEngine({ modelDir: 'models/folio-ocr-mini', draftK: 3 });
 * try { const [page] = await engine.recognize([image]); } finally { await engine.close(); }
 */
export async function createOnnxEngine(options: Readonly<OnnxEngineOptions>): Promise<OcrEngine> {
  const { modelDir, device = 'cpu', draftK, batchSize = 8, maxTokens, threads = 0, maxImageSide, exact = true, input, viewBatchSize = 16 } = options;
  if (typeof modelDir !== 'string' || modelDir === '')
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`modelDir\` to be a folder path, got \`${String(modelDir)}\` (${typeof modelDir})`);
  if (!DEVICES.includes(device))
    throw new ConfigurationError('FOLIO_BAD_DEVICE', `Expected \`device\` to be one of ${DEVICES.join(', ')}, got \`${String(device)}\``);
  if (draftK !== undefined && (!Number.isInteger(draftK) || draftK < 0))
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`draftK\` to be an integer from 0 and up, got \`${draftK}\` (${typeof draftK})`);
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`batchSize\` to be an integer from 1 and up, got \`${batchSize}\` (${typeof batchSize})`);
  if (input !== undefined && input !== 'page' && input !== 'text-block')
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`input\` to be \`page\` or \`text-block\`, got \`${String(input)}\` (${typeof input})`);
  if (!Number.isInteger(viewBatchSize) || viewBatchSize < 1)
    throw new ConfigurationError(
      'FOLIO_BAD_OPTION',
      `Expected \`viewBatchSize\` to be an integer from 1 and up, got \`${viewBatchSize}\` (${typeof viewBatchSize})`,
    );
  if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || maxTokens < 1))
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`maxTokens\` to be an integer from 1 and up, got \`${maxTokens}\` (${typeof maxTokens})`);

  const model = await loadModel({ modelDir, device, threads, withoutDraftHead: draftK === 0 });
  if (draftK !== undefined && draftK > 0 && model.config.draft.k === 0) {
    await model.release();
    throw new ConfigurationError('FOLIO_BAD_OPTION', `\`draftK\` is ${draftK} but ${modelDir} has no draft head; use 0`);
  }

  const blockReader =
    (input ?? model.config.input) === 'text-block'
      ? await createBlockReader(model, { threads, viewBatchSize }).catch(async (error: unknown) => {
          await model.release();
          throw error;
        })
      : undefined;

  const run = async (pages: readonly PageImage[], signal: AbortSignal | undefined): Promise<{ results: (PageDecode | BlockPageDecode)[]; retries: number }> => {
    try {
      if (blockReader !== undefined)
        return await inBatches({
          items: pages,
          batchSize,
          run: async (batch) => (await blockReader.read(batch, { draftK, maxTokens, maxImageSide, exact, signal })).results,
        });
      return await inBatches({ items: pages, batchSize, run: (batch) => decode(model, batch, { draftK, maxTokens, maxImageSide, exact, signal }) });
    } catch (error) {
      throw pageError(error, pages);
    }
  };

  return {
    name: 'onnx',
    async recognize(pages: readonly PageImage[], recognizeOptions: Readonly<RecognizeOptions> = {}): Promise<OcrPageResult[]> {
      const { signal } = recognizeOptions;
      signal?.throwIfAborted();
      const { results, retries } = await run(pages, signal);
      // Decoding stops early on abort; half-read pages are not results.
      signal?.throwIfAborted();
      return results.map((r) => {
        const stats: Record<string, number> = {
          tokens: r.stats.tokens,
          steps: r.stats.steps,
          tau: r.stats.tau,
          draftK: r.stats.draftK,
          prefillMs: r.stats.prefillMs,
          draftMs: r.stats.draftMs,
          verifyMs: r.stats.verifyMs,
          visionMs: r.stats.visionMs,
          minMargin: r.stats.minMargin,
          ms: r.stats.visionMs + r.stats.prefillMs + r.stats.draftMs + r.stats.verifyMs,
          retries,
          ...('extra' in r ? r.extra : {}),
        };
        r.stats.acceptance.forEach((a, j) => {
          stats[`accept${j + 1}`] = a;
        });
        return { markdown: r.text, engine: 'onnx', stats, ...('positioned' in r ? { positioned: r.positioned } : {}) };
      });
    },
    async close(): Promise<void> {
      await Promise.all([model.release(), blockReader?.release()]);
    },
  };
}

/** Name the page(s) in an error that does not already. */
function pageError(error: unknown, batch: readonly PageImage[]): unknown {
  if (error instanceof InferenceError && /^page \d+ of /.test(error.message)) return error;
  if (error instanceof ConfigurationError) return error;
  const pages = batch.map((p) => `page ${p.pageNumber} of ${p.source}`).join(', ');
  const message = error instanceof Error ? error.message : String(error);
  return new InferenceError(error instanceof InferenceError ? error.code : 'FOLIO_OCR_FAILED', `${pages}: ${message}`, {
    cause: error,
    meta: { pages: batch.map((p) => ({ source: p.source, pageNumber: p.pageNumber })) },
  });
}
