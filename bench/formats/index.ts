/** `folio bench formats [--data DIR] [--no-baselines]`: {@link runFormatsSet}, written to `formats.md` and `formats.json`. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigurationError, describeError } from '../../core/errors.ts';
import { formatsReport } from './report.ts';
import { type FormatsResult, runFormatsSet } from './run.ts';

export { formatsReport } from './report.ts';
export type { FormatsBenchOptions, FormatsFileRow, FormatsFormatRow, FormatsResult } from './run.ts';
export { runFormatsSet } from './run.ts';

export const FORMATS_USAGE = 'folio bench formats [--data DIR] [--no-baselines]';

/**
 * The `formats` bench suite.
 *
 * @example
 * await runFormatsBench({ argv: ['--no-baselines'], resultsDir: 'bench/results' });
 */
export async function runFormatsBench({ argv, resultsDir }: Readonly<{ argv: readonly string[]; resultsDir: string }>): Promise<FormatsResult> {
  let values;
  try {
    values = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: { data: { type: 'string' }, 'no-baselines': { type: 'boolean' }, quick: { type: 'boolean' } },
    }).values;
  } catch (error) {
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench formats: ${describeError(error)}; usage: ${FORMATS_USAGE}`, { cause: error });
  }
  const result = await runFormatsSet({ ...(values.data === undefined ? {} : { data: values.data }), baselines: !values['no-baselines'] && !values.quick });
  await mkdir(resultsDir, { recursive: true });
  await writeFile(join(resultsDir, 'formats.json'), `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(join(resultsDir, 'formats.md'), formatsReport(result, `npx folio bench formats ${argv.join(' ')}`.trim()));
  console.error(`bench formats: wrote ${join(resultsDir, 'formats.md')}`);
  return result;
}
