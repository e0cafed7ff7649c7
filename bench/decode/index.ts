/**
 * `folio bench decode [--quick] [--model DIR] [--device cpu|webgpu|cuda] [--k 0,1,2,3]
 * [--batch 1,8] [--runs N] [--tokens N] [--ignore-eos] [--pages DIR] [--limit N] [--threads N]
 * [--graphs steps,contract] [--steer RATE] [--inexact]`
 */
import { parseArgs } from 'node:util';
import { integer } from '../../cli/options.ts';
import { ConfigurationError, describeError } from '../../core/errors.ts';
import type { Device } from '../../inference/runtime/ort.ts';
import { DEVICES } from '../../inference/runtime/ort.ts';
import { decodeMarkdown } from './report.ts';
import type { DecodeBenchConfig, DecodeBenchResult, Graphs } from './run.ts';
import { measureDecode, writeDecodeResults } from './run.ts';

export { decodeMarkdown } from './report.ts';
export type { DecodeBenchConfig, DecodeBenchResult, DecodeRow, Graphs } from './run.ts';
export { FIXTURE_MODEL, HELD_OUT_VIEWS, MINI_MODEL, measureDecode, writeDecodeResults } from './run.ts';
export type { SteerOptions } from './steer.ts';
export { steeredDraft, steeredStepDraft } from './steer.ts';

export const DECODE_USAGE =
  'folio bench decode [--quick] [--model DIR] [--device cpu|webgpu|cuda] [--k 0,1,2,3] [--batch 1,8] [--runs N] [--tokens N] [--ignore-eos] [--pages DIR] [--limit N] [--threads N] [--graphs steps,contract] [--steer RATE] [--inexact] [--reference TORCH_REF.json] [--gpu-validation on|off]';

export interface DecodeBenchOptions extends DecodeBenchConfig {
  /** Command-line flags (override the fields above). */
  readonly argv?: readonly string[];
  /** Where `decode.md` and `decode.json` go. @default 'bench/results' */
  readonly resultsDir?: string;
  /** Small and CPU-only (8 views, batch 1, 2 runs): about two minutes. @default false */
  readonly quick?: boolean;
  /** Progress lines. @default console.log */
  readonly log?: (line: string) => void;
}

function list(flag: string, value: string | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  const items = value.split(',').map(Number);
  if (items.some((n) => !Number.isInteger(n) || n < 0))
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `Expected \`--${flag}\` to be integers separated by commas, got \`${value}\``);
  return items;
}

function onOff(flag: string, value: string): boolean {
  if (value !== 'on' && value !== 'off') throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `Expected \`--${flag}\` to be on or off, got \`${value}\``);
  return value === 'on';
}

/**
 * Run the decode benchmark, write `bench/results/decode.md` (and `.json`), print the summary line
 * last; resolves to the exit code (1 when any configuration was not lossless).
 *
 * @example
 * process.exitCode = await runDecodeBench({ argv: ['--quick'] });
 */
export async function runDecodeBench(options: Readonly<DecodeBenchOptions> = {}): Promise<number> {
  const { argv = [], resultsDir = 'bench/results', log = (line: string) => console.log(line) } = options;
  let values;
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        quick: { type: 'boolean' },
        model: { type: 'string' },
        device: { type: 'string' },
        k: { type: 'string' },
        batch: { type: 'string' },
        runs: { type: 'string' },
        tokens: { type: 'string' },
        'ignore-eos': { type: 'boolean' },
        pages: { type: 'string' },
        limit: { type: 'string' },
        threads: { type: 'string' },
        graphs: { type: 'string' },
        steer: { type: 'string' },
        inexact: { type: 'boolean' },
        reference: { type: 'string' },
        'gpu-validation': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench decode: ${describeError(error)}; usage: ${DECODE_USAGE}`, { cause: error });
  }
  if (values.help) {
    log(DECODE_USAGE);
    return 0;
  }
  const device = (values.device ?? options.device ?? 'cpu') as Device;
  if (!DEVICES.includes(device))
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `Expected \`--device\` to be one of ${DEVICES.join(', ')}, got \`${device}\``);
  const quick = values.quick ?? options.quick ?? false;
  const steer = values.steer === undefined ? options.steerRate : Number(values.steer);
  if (steer !== undefined && !(steer >= 0 && steer <= 1))
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `Expected \`--steer\` to be a rate from 0 to 1, got \`${values.steer}\``);
  const graphs = values.graphs?.split(',');
  if (graphs !== undefined && (graphs.length === 0 || graphs.some((g) => g !== 'steps' && g !== 'contract')))
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `Expected \`--graphs\` to be steps, contract or both separated by a comma, got \`${values.graphs}\``);
  const config: DecodeBenchConfig = {
    ...options,
    ...(quick ? { device: 'cpu' as const, batches: [1], runs: 2, limit: 8, threads: 1 } : {}),
    ...(values.model !== undefined ? { modelDir: values.model } : {}),
    ...(values.device !== undefined ? { device } : {}),
    ...(values.k !== undefined ? { ks: list('k', values.k) } : {}),
    ...(values.batch !== undefined ? { batches: list('batch', values.batch) } : {}),
    ...(values.runs !== undefined ? { runs: integer('runs', values.runs, 1) } : {}),
    ...(values.tokens !== undefined ? { tokens: integer('tokens', values.tokens, 2) } : {}),
    ...(values['ignore-eos'] ? { eos: false } : {}),
    ...(values.pages !== undefined ? { pagesDir: values.pages } : {}),
    ...(values.limit !== undefined ? { limit: integer('limit', values.limit, 1) } : {}),
    ...(graphs !== undefined ? { graphs: graphs as Graphs[] } : {}),
    ...(values.threads !== undefined ? { threads: integer('threads', values.threads, 0) } : {}),
    ...(steer !== undefined ? { steerRate: steer } : {}),
    ...(values.inexact ? { exact: false } : {}),
    ...(values.reference !== undefined ? { reference: values.reference } : {}),
    ...(values['gpu-validation'] !== undefined ? { gpuValidation: onOff('gpu-validation', values['gpu-validation']) } : {}),
  };
  log(`bench decode: ${config.modelDir ?? 'folio-ocr-mini (committed)'} on ${config.device ?? 'cpu'}`);
  const result: DecodeBenchResult = await measureDecode(config, log);
  // The quick run is a smoke check; only full runs replace the recorded results.
  if (!values.quick) await writeDecodeResults(resultsDir, result, decodeMarkdown(result));
  log(result.summary);
  return result.lossless ? 0 : 1;
}
