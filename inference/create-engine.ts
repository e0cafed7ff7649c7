/**
 * Engines by name, created lazily: a run that never meets a scanned page never loads a model.
 */
import { ConfigurationError } from '../core/errors.ts';
import { defaultOnnxModelDir } from './default-model.ts';
import type { OcrEngine } from './engine.ts';
import type { Device } from './runtime/ort.ts';

/** The OCR engines Folio knows; `text` means "no OCR" and has no engine. */
export const OCR_ENGINES = ['paddle', 'onnx', 'remote', 'reader'] as const;
export type OcrEngineName = (typeof OCR_ENGINES)[number];

export interface EngineOptions {
  /** Execution provider for local ONNX engines. @default 'cpu' */
  readonly device?: Device;
  /** Folder of a `folio-ocr` model for the `onnx` engine. @default folio-ocr-mini: committed in a checkout, else the `@folio-ocr/folio-ocr-mini` package */
  readonly modelDir?: string;
  /** Draft tokens per step for the `onnx` engine (0 = plain greedy). @default 3 */
  readonly draftK?: number;
  /** Base URLs of OpenAI-compatible servers for the `remote` engine. */
  readonly remoteUrls?: readonly string[];
  /** Model name sent to the remote server. @default what each server lists at `/v1/models` (see `createRemoteEngine`) */
  readonly remoteModel?: string;
  /** Bearer key for the remote or reader engine; never logged. */
  readonly apiKey?: string;
  /** Requests in flight per remote server. @default 32 */
  readonly concurrency?: number;
  /** Pages per engine call. */
  readonly batchSize?: number;
  /** CPU threads for local engines; 0 lets onnxruntime decide. @default 0 */
  readonly threads?: number;
  /** What reads the `paddle` engine's detected lines: PP-OCRv4 or folio-ocr-lines (on `device`). @default 'paddle' */
  readonly recognizer?: 'paddle' | 'folio';
}

/**
 * Create the OCR engine called `name`.
 *
 * @example
 * const engine = await createEngine('paddle');
 * const [page] = await engine.recognize([image]);
 */
export async function createEngine(name: string, options: Readonly<EngineOptions> = {}): Promise<OcrEngine> {
  switch (name) {
    case 'paddle': {
      const { createPaddleEngine } = await import('./paddle/index.ts');
      return createPaddleEngine({ threads: options.threads, recognizer: options.recognizer, lineReader: { device: options.device } });
    }
    case 'onnx': {
      const { createOnnxEngine } = await import('./onnx/index.ts');
      const modelDir = options.modelDir ?? defaultOnnxModelDir();
      return createOnnxEngine({ modelDir, device: options.device, draftK: options.draftK, batchSize: options.batchSize, threads: options.threads });
    }
    case 'remote': {
      const { createRemoteEngine } = await import('./remote/index.ts');
      if (!options.remoteUrls?.length) throw new ConfigurationError('FOLIO_BAD_OPTION', 'the remote engine needs at least one server: --remote-url URL[,URL…]');
      return createRemoteEngine({ urls: options.remoteUrls, model: options.remoteModel, apiKey: options.apiKey, concurrency: options.concurrency });
    }
    case 'reader': {
      const { createReaderEngine } = await import('./remote/index.ts');
      return createReaderEngine({ baseUrl: options.remoteUrls?.[0], apiKey: options.apiKey, concurrency: options.concurrency });
    }
    default:
      throw new ConfigurationError('FOLIO_UNKNOWN_ENGINE', `Expected \`engine\` to be one of auto, text, ${OCR_ENGINES.join(', ')}, got \`${name}\``, {
        meta: { engine: name },
      });
  }
}
