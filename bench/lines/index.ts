/**
 * `folio bench lines [--sets docling,icdar2013,gnarly] [--docs N] [--lines N] [--readers folio,paddle,tesseract]
 * [--model DIR] [--device cpu|webgpu|cuda] [--threads N] [--speed-lines N] [--k 1,2,3,4,5] [--runs N] [--quick]`
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { integer } from '../../cli/options.ts';
import { ConfigurationError, describeError } from '../../core/errors.ts';
import type { Device } from '../../inference/runtime/ort.ts';
import { DEVICES } from '../../inference/runtime/ort.ts';
import { machineInfo } from '../common/machine.ts';
import { SCAN_SOURCES } from '../scans/build.ts';
import type { ExternalSuiteOptions } from '../suites.ts';
import { buildLineCrops } from './crops.ts';
import { linesMarkdown } from './report.ts';
import type { LineReaderName } from './run.ts';
import { LINE_READERS, measureLines } from './run.ts';

export type { LineCrop, LinePages } from './crops.ts';
export { buildLineCrops, normaliseLine, parseBboxLines } from './crops.ts';
export type { LinesBenchResult, QualityRow, SpeedRow } from './run.ts';
export { lineCer, measureLines } from './run.ts';

export const LINES_USAGE =
  'folio bench lines [--sets docling,icdar2013,gnarly] [--docs N] [--lines N] [--readers folio,paddle,tesseract] [--model DIR] [--device cpu|webgpu|cuda] [--threads N] [--speed-lines N] [--k 1,2,3,4,5] [--runs N] [--quick]';

/**
 * Run the line bench; writes `lines.md` and `lines.json` under the results folder (not for `--quick`).
 *
 * @example
 * await runLinesBench({ argv: ['--quick'], resultsDir: 'bench/results' });
 */
export async function runLinesBench(options: Readonly<ExternalSuiteOptions>): Promise<number> {
  const log = (line: string): void => console.log(line);
  let values;
  try {
    values = parseArgs({
      args: [...options.argv],
      options: {
        sets: { type: 'string' },
        docs: { type: 'string' },
        lines: { type: 'string' },
        readers: { type: 'string' },
        model: { type: 'string' },
        device: { type: 'string' },
        threads: { type: 'string' },
        'speed-lines': { type: 'string' },
        k: { type: 'string' },
        runs: { type: 'string' },
        data: { type: 'string' },
        quick: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench lines: ${describeError(error)}; usage: ${LINES_USAGE}`, { cause: error });
  }
  if (values.help) {
    log(LINES_USAGE);
    return 0;
  }
  const device = (values.device ?? 'cpu') as Device;
  if (!DEVICES.includes(device))
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `Expected \`--device\` to be one of ${DEVICES.join(', ')}, got \`${device}\``);
  const setNames = values.sets?.split(',') ?? Object.keys(SCAN_SOURCES);
  for (const s of setNames) {
    if (!(s in SCAN_SOURCES))
      throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench lines: unknown set \`${s}\`; sets: ${Object.keys(SCAN_SOURCES).join(', ')}`);
  }
  const readers = (values.readers?.split(',') ?? [...LINE_READERS]) as LineReaderName[];
  for (const r of readers) {
    if (!LINE_READERS.includes(r))
      throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench lines: unknown reader \`${r}\`; readers: ${LINE_READERS.join(', ')}`);
  }
  const quick = values.quick === true;
  const crops = {
    sets: Object.fromEntries(setNames.map((s) => [s, SCAN_SOURCES[s]!])),
    docsPerSet: integer('docs', values.docs, 1) ?? (quick ? 2 : 6),
    linesPerSet: integer('lines', values.lines, 1) ?? (quick ? 12 : 120),
    dpi: 200,
  };
  const ks = values.k?.split(',').map((k) => integer('k', k, 1)!) ?? [1, 2, 3, 4, 5];
  const pages = await buildLineCrops({ dataDir: values.data ?? '../shared/data', ...crops });
  log(`lines: ${pages.crops.length} crops on ${pages.images.length} page images (${pages.skipped.length} documents skipped)`);
  const result = await measureLines(pages, {
    modelDir: values.model,
    device,
    threads: integer('threads', values.threads, 0) ?? 2,
    readers,
    speedLines: integer('speed-lines', values['speed-lines'], 0) ?? (quick ? 0 : 64),
    ks,
    runs: integer('runs', values.runs, 1) ?? (quick ? 1 : 3),
    log,
  });
  const command = `npx folio bench lines${options.argv.length > 0 ? ` ${options.argv.join(' ')}` : ''}`;
  const markdown = linesMarkdown({ result, machine: machineInfo(), command, crops, skipped: pages.skipped });
  if (!quick) {
    await mkdir(options.resultsDir, { recursive: true });
    await writeFile(join(options.resultsDir, 'lines.json'), `${JSON.stringify({ command, crops, skipped: pages.skipped, ...result }, null, 2)}\n`);
    await writeFile(join(options.resultsDir, 'lines.md'), markdown);
  }
  log(markdown);
  return 0;
}
