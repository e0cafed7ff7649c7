/**
 * Options shared by `ingest` and `convert`: which engine reads pages and how the OCR engine is
 * created. Parsing is strict: an unknown flag or a bad value stops the run before it starts.
 */
import { availableParallelism } from 'node:os';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { ConfigurationError } from '../core/errors.ts';
import { createEngine, type EngineOptions, OCR_ENGINES } from '../inference/create-engine.ts';
import type { OcrEngine } from '../inference/engine.ts';
import type { Device } from '../inference/runtime/ort.ts';
import type { ProcessSourcesOptions } from '../pipeline/run/process-sources.ts';

export const PIPELINE_FLAGS = {
  engine: { type: 'string', default: 'auto' },
  device: { type: 'string', default: 'cpu' },
  recognizer: { type: 'string', default: 'paddle' },
  'draft-k': { type: 'string' },
  model: { type: 'string' },
  password: { type: 'string' },
  'max-tokens': { type: 'string' },
  'ocr-batch': { type: 'string' },
  dpi: { type: 'string' },
  'image-regions': { type: 'boolean', default: true },
  'formula-regions': { type: 'boolean', default: true },
  revisions: { type: 'string', default: 'accept' },
  'remote-url': { type: 'string' },
  'remote-model': { type: 'string' },
  concurrency: { type: 'string' },
  workers: { type: 'string' },
  quiet: { type: 'boolean', short: 'q', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsConfig['options'];

export function parse<T extends NonNullable<ParseArgsConfig['options']>>(argv: readonly string[], options: T) {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, allowNegative: true, strict: true });
  } catch (cause) {
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

export function integer(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `Expected \`--${name}\` to be an integer from ${min} and up, got \`${value}\``);
  }
  return n;
}

type PipelineValues = { [K in keyof typeof PIPELINE_FLAGS]?: string | boolean };

/** `--revisions accept|show`: how Word's tracked changes and comments are read. */
function revisionsFlag(value: string | undefined): 'accept' | 'show' {
  if (value === undefined || value === 'accept' || value === 'show') return value ?? 'accept';
  throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `Expected \`--revisions\` to be accept or show, got \`${value}\``);
}

/**
 * Worker threads when `--workers` is not given: one per core but one, at least 2 and at most 4
 * (none on a single core). The spare core runs this thread (sink, OCR engine, embedder) and often
 * Elasticsearch. On 2 cores, measured side by side on 2026-11-29 (`ingest --engine text` into a
 * local Elasticsearch, 3 runs each): 2 workers took 7.1 s median for 1,012 pages against 8.8 s
 * with none, and the same wall time (3.3 s) for 253 pages, for about 20% more CPU.
 */
export function defaultWorkers(cores: number = availableParallelism()): number {
  return cores < 2 ? 0 : Math.min(Math.max(cores - 1, 2), 4);
}

/** Turn parsed flags into pipeline options with a lazily created, shared OCR engine. */
export async function pipelineOptions(values: PipelineValues): Promise<{ options: ProcessSourcesOptions; close: () => Promise<void> }> {
  const engine = String(values.engine ?? 'auto');
  if (engine !== 'auto' && engine !== 'text' && !(OCR_ENGINES as readonly string[]).includes(engine)) {
    throw new ConfigurationError('FOLIO_UNKNOWN_ENGINE', `Expected \`--engine\` to be one of auto, text, ${OCR_ENGINES.join(', ')}, got \`${engine}\``);
  }
  const device = String(values.device ?? 'cpu') as Device;
  // Checking a device loads onnxruntime (tens of ms); the default needs no check.
  const devices = device === 'cpu' ? undefined : (await import('../inference/runtime/ort.ts')).DEVICES;
  if (devices !== undefined && !devices.includes(device)) {
    throw new ConfigurationError('FOLIO_BAD_DEVICE', `Expected \`--device\` to be one of ${devices.join(', ')}, got \`${device}\``);
  }
  const recognizer = String(values.recognizer ?? 'paddle');
  if (recognizer !== 'paddle' && recognizer !== 'folio') {
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `Expected \`--recognizer\` to be paddle or folio, got \`${recognizer}\``);
  }
  const remoteUrls =
    typeof values['remote-url'] === 'string'
      ? values['remote-url']
          .split(',')
          .map((u) => u.trim())
          .filter(Boolean)
      : undefined;
  const engineOptions: EngineOptions = {
    device,
    draftK: integer('draft-k', values['draft-k'] as string | undefined, 0),
    modelDir: values.model as string | undefined,
    remoteUrls,
    remoteModel: values['remote-model'] as string | undefined,
    apiKey: engine === 'reader' ? process.env.JINA_API_KEY : process.env.FOLIO_REMOTE_API_KEY,
    concurrency: integer('concurrency', values.concurrency as string | undefined, 1),
    recognizer,
  };
  // `auto` reads born-digital pages from the text layer and needs OCR only for the rest.
  const ocrName = engine === 'auto' ? 'paddle' : engine;
  let created: Promise<OcrEngine> | undefined;
  const ocr = engine === 'text' ? undefined : () => (created ??= createEngine(ocrName, engineOptions));
  return {
    options: {
      engine,
      ocr,
      password: values.password as string | undefined,
      maxTokens: integer('max-tokens', values['max-tokens'] as string | undefined, 16),
      // Remote servers batch across requests themselves: keep as many pages in flight as they take.
      ocrBatchSize:
        integer('ocr-batch', values['ocr-batch'] as string | undefined, 1) ??
        (engine === 'remote' || engine === 'reader' ? (engineOptions.concurrency ?? 32) : undefined),
      dpi: integer('dpi', values.dpi as string | undefined, 36),
      // `auto` reads words drawn as images and formulas the text layer cannot rebuild from pixels.
      imageRegions: values['image-regions'] !== false,
      formulaRegions: values['formula-regions'] !== false,
      formulaDevice: device,
      revisions: revisionsFlag(values.revisions as string | undefined),
      workers: integer('workers', values.workers as string | undefined, 0) ?? defaultWorkers(),
    },
    close: async () => {
      if (created) await (await created.catch(() => undefined))?.close();
    },
  };
}
