/**
 * `folio bench speed [--sets a,b] [--ingest-set S] [--runs N] [--es URL] [--long-pages N] [--no-pymupdf] [--documents N]`:
 * {@link runSpeedSuite}, written to `speed.md` and `speed.json`.
 */
import { parseArgs } from 'node:util';
import { ConfigurationError, describeError } from '../../core/errors.ts';
import type { SpeedBenchResult } from './run.ts';
import { runSpeedSuite } from './run.ts';

export { speedMarkdown } from './report.ts';
export type { SpeedBenchOptions, SpeedBenchResult, SpeedRow, SpeedSample } from './run.ts';
export { runSpeedSuite } from './run.ts';

export const SPEED_USAGE =
  'folio bench speed [--sets docling,olmocr,factory,factory-scans] [--ingest-set factory] [--runs 3] [--es URL] [--long-pages 1600] [--no-pymupdf] [--documents N]';

/**
 * The `speed` bench suite.
 *
 * @example
 * await runSpeedBench({ argv: ['--sets', 'docling', '--runs', '1'], resultsDir: 'bench/results' });
 */
export async function runSpeedBench({ argv, resultsDir }: Readonly<{ argv: readonly string[]; resultsDir: string }>): Promise<SpeedBenchResult> {
  let values;
  try {
    values = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        sets: { type: 'string' },
        'ingest-set': { type: 'string' },
        runs: { type: 'string' },
        es: { type: 'string' },
        'long-pages': { type: 'string' },
        'no-pymupdf': { type: 'boolean' },
        documents: { type: 'string' },
      },
    }).values;
  } catch (error) {
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench speed: ${describeError(error)}; usage: ${SPEED_USAGE}`, { cause: error });
  }
  const count = (name: string, value: string | undefined): number | undefined => {
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1)
      throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench speed: expected --${name} to be an integer from 1 up, got \`${value}\``);
    return n;
  };
  return runSpeedSuite({
    ...(values.sets === undefined ? {} : { sets: values.sets.split(',').map((s) => s.trim()) }),
    ...(values['ingest-set'] === undefined ? {} : { ingestSet: values['ingest-set'] }),
    ...(values.runs === undefined ? {} : { runs: count('runs', values.runs) }),
    ...(values.es === undefined ? {} : { es: values.es }),
    ...(values['long-pages'] === undefined ? {} : { longPages: count('long-pages', values['long-pages']) }),
    ...(values.documents === undefined ? {} : { documents: count('documents', values.documents) }),
    noPymupdf: values['no-pymupdf'] === true,
    out: resultsDir,
  });
}
