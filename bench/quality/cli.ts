/** `folio bench quality [--set a,b] [--engine a,b] [--folio-engine auto] [--limit N]`. */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigurationError } from '../../core/errors.ts';
import { parseSuiteArgs } from '../run-bench.ts';
import type { ScanQualityResult } from '../scans/index.ts';
import { runScansBench, scansReport } from '../scans/index.ts';
import type { ExternalSuiteOptions } from '../suites.ts';
import { qualityMarkdown } from './report.ts';
import type { QualityBenchResult } from './run.ts';
import { runQualityBenchSets } from './run.ts';

export const QUALITY_USAGE =
  'folio bench quality [--set icdar,tables,docling,olmocr,rtl,formulas,factory,factory-scans,scans] [--engine folio-auto,pdftotext,pymupdf4llm,tesseract,tabula-guess,tabula-lattice,tabula-stream] [--folio-engine auto|text] [--limit N] [--rebuild] (scans: pages per set, rebuild the scans) [--documents N] (at most N documents per set, spread over it) [--quick]';

/** A whole number from 1 up, or a ConfigurationError naming the flag. */
function positive(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench quality: expected \`${flag}\` to be an integer from 1 and up, got \`${value}\``);
  return n;
}

/** The scanned-page set lives in `bench/scans/` (Folio beside Tesseract, CER): its own engines and scorer. */
const SCANS = 'scans';

const list = (v: string | boolean | undefined): string[] | undefined =>
  typeof v === 'string'
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/**
 * The suite's entry point for `bench/suites.ts`. `--set scans` runs the degraded-scan bench of
 * `bench/scans/`; `quality.md` then holds the born-digital sets of the last run and the scan
 * figures of the last scan run, so one report names every set.
 *
 * @example
 * await runQualityBench({ argv: ['--set', 'icdar'], resultsDir: 'bench/results' })
 */
export async function runQualityBench({ argv, resultsDir }: Readonly<ExternalSuiteOptions>): Promise<number> {
  const values = parseSuiteArgs('quality', argv, {
    set: { type: 'string' },
    engine: { type: 'string' },
    'folio-engine': { type: 'string' },
    limit: { type: 'string' },
    documents: { type: 'string' },
    rebuild: { type: 'boolean' },
    quick: { type: 'boolean' },
  });
  if (values.help) {
    console.log(QUALITY_USAGE);
    return 0;
  }
  const requested = list(values.set);
  const scans = requested === undefined || requested.includes(SCANS);
  const sets = requested?.filter((s) => s !== SCANS);
  const engines = list(values.engine);
  let result: QualityBenchResult | undefined;
  if (sets === undefined || sets.length > 0) {
    result = await runQualityBenchSets({
      resultsDir,
      ...(sets ? { sets } : {}),
      // `bench all --quick`: Folio and pdftotext only, so the report gets figures without installing the Python and Java peers.
      ...(engines
        ? { engines }
        : values.quick
          ? { engines: [`folio-${typeof values['folio-engine'] === 'string' ? values['folio-engine'] : 'auto'}`, 'pdftotext'] }
          : {}),
      ...(typeof values['folio-engine'] === 'string' ? { folioEngine: values['folio-engine'] } : {}),
      // `--quick` reads a dozen documents of each set (the factory's 180 take long on 2 cores).
      ...(typeof values.documents === 'string' ? { documents: positive(values.documents, '--documents') } : values.quick ? { documents: 12 } : {}),
    });
    console.log(
      JSON.stringify(
        result.sets.map((s) => ({
          set: s.set,
          engines: s.engines.map((e) => ({ engine: e.engine, headline: e.score?.headline ?? 'not run', pagesPerSecond: e.pagesPerSecond })),
        })),
      ),
    );
  }
  let scanResult: ScanQualityResult | undefined;
  if (scans) {
    const scanArgs = [
      ...(typeof values.limit === 'string' ? ['--limit', values.limit] : []),
      ...(values.rebuild ? ['--rebuild'] : []),
      ...(values.quick ? ['--quick'] : []),
    ];
    scanResult = await runScansBench({ argv: scanArgs, resultsDir });
  }
  // One report for every set: what this run did not measure comes from the last run that did.
  result ??= await readJson<QualityBenchResult>(path.join(resultsDir, 'quality.json'));
  scanResult ??= await readJson<ScanQualityResult>(path.join(resultsDir, 'scans.json'));
  const parts = [
    ...(result ? [qualityMarkdown(result)] : ['# Quality on the dev sets (`npx folio bench quality`)\n']),
    ...(scanResult ? [`## Set \`scans\`: degraded scans (Folio beside Tesseract)\n\n${scansReport(scanResult, 'npx folio bench quality --set scans')}`] : []),
  ];
  await writeFile(path.join(resultsDir, 'quality.md'), parts.join('\n'));
  return 0;
}
