/**
 * `folio bench math [--model DIR] [--views DIR] [--device cpu|webgpu|cuda] [--threads N] [--limit N]
 * [--speed-views N] [--batch 1,16] [--k 3] [--runs N] [--quick]`
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { integer } from '../../cli/options.ts';
import { ConfigurationError, describeError } from '../../core/errors.ts';
import type { Device } from '../../inference/runtime/ort.ts';
import { DEVICES } from '../../inference/runtime/ort.ts';
import { mathMarkdown } from './report.ts';
import type { MathBenchConfig } from './run.ts';
import { measureMath } from './run.ts';

export { canonicalLatex } from './normalise.ts';
export { mathMarkdown } from './report.ts';
export type { MathBenchConfig, MathBenchResult, MathSetResult, MathSpeedRow } from './run.ts';
export { MATH_MODEL, MATH_VIEWS, measureMath, renderEqual } from './run.ts';

export const MATH_USAGE =
  'folio bench math [--model DIR] [--views DIR] [--device cpu|webgpu|cuda] [--threads N] [--limit N] [--speed-views N] [--batch 1,16] [--k 3] [--runs N] [--quick]';

export interface MathBenchOptions {
  readonly argv?: readonly string[];
  /** @default 'bench/results' */
  readonly resultsDir?: string;
  /** @default console.log */
  readonly log?: (line: string) => void;
}

/**
 * Run the math benchmark, write `bench/results/math.md` and `math.json` (not for `--quick`);
 * resolves to the exit code (1 when speculative decoding changed an output).
 *
 * @example
 * process.exitCode = await runMathBench({ argv: ['--quick'] });
 */
export async function runMathBench(options: Readonly<MathBenchOptions> = {}): Promise<number> {
  const { argv = [], resultsDir = 'bench/results', log = (line: string) => console.log(line) } = options;
  let values;
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        model: { type: 'string' },
        views: { type: 'string' },
        device: { type: 'string' },
        threads: { type: 'string' },
        limit: { type: 'string' },
        'speed-views': { type: 'string' },
        batch: { type: 'string' },
        k: { type: 'string' },
        runs: { type: 'string' },
        quick: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench math: ${describeError(error)}; usage: ${MATH_USAGE}`, { cause: error });
  }
  if (values.help) {
    log(MATH_USAGE);
    return 0;
  }
  const device = (values.device ?? 'cpu') as Device;
  if (!DEVICES.includes(device))
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `Expected \`--device\` to be one of ${DEVICES.join(', ')}, got \`${device}\``);
  const batches = values.batch?.split(',').map((b) => integer('batch', b, 1)!);
  const config: MathBenchConfig = {
    device,
    ...(values.quick ? { limit: 16, speedViews: 8, batches: [1], runs: 1 } : {}),
    ...(values.model !== undefined ? { modelDir: values.model } : {}),
    ...(values.views !== undefined ? { viewsDir: values.views } : {}),
    ...(values.threads !== undefined ? { threads: integer('threads', values.threads, 0) } : {}),
    ...(values.limit !== undefined ? { limit: integer('limit', values.limit, 1) } : {}),
    ...(values['speed-views'] !== undefined ? { speedViews: integer('speed-views', values['speed-views'], 1) } : {}),
    ...(batches !== undefined ? { batches } : {}),
    ...(values.k !== undefined ? { k: integer('k', values.k, 1) } : {}),
    ...(values.runs !== undefined ? { runs: integer('runs', values.runs, 1) } : {}),
  };
  const result = await measureMath(config, log);
  if (!values.quick) {
    await mkdir(resultsDir, { recursive: true });
    await writeFile(join(resultsDir, 'math.json'), `${JSON.stringify(result, null, 2)}\n`);
    await writeFile(join(resultsDir, 'math.md'), mathMarkdown(result));
  }
  log(result.summary);
  const lossless = result.sets.every((s) => s.identical === 1) && result.speed.every((r) => r.lossless);
  return lossless ? 0 : 1;
}
