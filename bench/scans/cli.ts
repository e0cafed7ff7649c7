/** `folio bench scans [flags]`: parse the flags, run {@link runScanQuality}, write `scans.md` and `scans.json`. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigurationError, describeError } from '../../core/errors.ts';
import { machineInfo, machineMarkdown } from '../common/index.ts';
import { scansReport } from './report.ts';
import type { ScanEngine, ScanQualityResult } from './run.ts';
import { runScanQuality } from './run.ts';

export const SCANS_USAGE =
  'folio bench scans [--limit N] [--sets docling,icdar2013,gnarly,docling-ocr] [--paddle] [--no-auto] [--no-tesseract] [--rebuild] [--quick] [--no-formula-regions] [--threads N] [--rec-onnx FILE --rec-keys FILE] [--data DIR] [--scans DIR]';

export interface ScansBenchOptions {
  readonly argv: readonly string[];
  /** @default 'bench/results' */
  readonly resultsDir?: string;
}

/**
 * The `scans` bench suite.
 *
 * @example
 * await runScansBench({ argv: ['--limit', '5'], resultsDir: 'bench/results' });
 */
export async function runScansBench(options: Readonly<ScansBenchOptions>): Promise<ScanQualityResult> {
  const { argv, resultsDir = 'bench/results' } = options;
  let values;
  try {
    values = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        limit: { type: 'string' },
        sets: { type: 'string' },
        paddle: { type: 'boolean' },
        'no-auto': { type: 'boolean' },
        'no-tesseract': { type: 'boolean' },
        rebuild: { type: 'boolean' },
        'no-formula-regions': { type: 'boolean' },
        quick: { type: 'boolean' },
        threads: { type: 'string' },
        'rec-onnx': { type: 'string' },
        'rec-keys': { type: 'string' },
        data: { type: 'string' },
        scans: { type: 'string' },
      },
    }).values;
  } catch (error) {
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench scans: ${describeError(error)}; usage: ${SCANS_USAGE}`, { cause: error });
  }
  // `bench all --quick` passes --quick: a few pages of each set.
  const limit = values.limit === undefined ? (values.quick ? 3 : Infinity) : Number(values.limit);
  if (!(limit >= 1))
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench scans: --limit must be a number from 1 and up, got \`${values.limit}\`; usage: ${SCANS_USAGE}`);
  const recOnnx = values['rec-onnx'];
  const recKeys = values['rec-keys'];
  if ((recOnnx === undefined) !== (recKeys === undefined))
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench scans: --rec-onnx and --rec-keys go together; usage: ${SCANS_USAGE}`);
  const engines: ScanEngine[] = [
    ...(values['no-auto'] ? [] : ['auto' as const]),
    ...(values.paddle ? ['paddle' as const] : []),
    ...(values['no-tesseract'] ? [] : ['tesseract' as const]),
  ];
  const result = await runScanQuality({
    engines,
    limit,
    rebuild: values.rebuild === true,
    formulaRegions: values['no-formula-regions'] !== true,
    ...(values.sets === undefined ? {} : { sets: values.sets.split(',') }),
    ...(values.threads === undefined ? {} : { threads: Number(values.threads) }),
    // Another PP-OCR recogniser in paddle, to compare it with the shipped one on the same pages.
    ...(recOnnx === undefined || recKeys === undefined ? {} : { paddle: { recModel: { onnx: recOnnx, keys: recKeys } } }),
    ...(values.data === undefined ? {} : { dataDir: values.data }),
    ...(values.scans === undefined ? {} : { scanDir: values.scans }),
  });
  await mkdir(resultsDir, { recursive: true });
  const machine = machineInfo();
  await writeFile(join(resultsDir, 'scans.json'), `${JSON.stringify({ ...result, machine }, null, 2)}\n`);
  await writeFile(
    join(resultsDir, 'scans.md'),
    `# Scan benchmark\n\n${machineMarkdown(machine)}\n\n${scansReport(result, `npx folio bench scans ${argv.join(' ')}`.trim())}`,
  );
  console.error(`bench scans: wrote ${join(resultsDir, 'scans.md')}`);
  return result;
}
