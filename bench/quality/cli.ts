/** `folio bench quality [--set a,b] [--engine a,b] [--folio-engine auto]`. */
import { parseSuiteArgs } from '../run-bench.ts';
import { runQualityBenchSets } from './run.ts';
import type { ExternalSuiteOptions } from '../suites.ts';

export const QUALITY_USAGE = 'folio bench quality [--set icdar,docling,olmocr,rtl] [--engine folio-auto,pdftotext,pymupdf4llm,tabula-guess,tabula-lattice,tabula-stream] [--folio-engine auto|text] [--quick]';

const list = (v: string | boolean | undefined): string[] | undefined => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : undefined);

/**
 * The suite's entry point for `bench/suites.ts`.
 *
 * @example
 * await runQualityBench({ argv: ['--set', 'icdar'], resultsDir: 'bench/results' })
 */
export async function runQualityBench({ argv, resultsDir }: Readonly<ExternalSuiteOptions>): Promise<number> {
  const values = parseSuiteArgs('quality', argv, { set: { type: 'string' }, engine: { type: 'string' }, 'folio-engine': { type: 'string' }, quick: { type: 'boolean' } });
  if (values.help) {
    console.log(QUALITY_USAGE);
    return 0;
  }
  const sets = list(values.set);
  const engines = list(values.engine);
  const result = await runQualityBenchSets({
    resultsDir,
    ...(sets ? { sets } : {}),
    // `bench all --quick`: Folio and pdftotext only, so the report gets figures without installing the Python and Java peers.
    ...(engines ? { engines } : values.quick ? { engines: [`folio-${typeof values['folio-engine'] === 'string' ? values['folio-engine'] : 'auto'}`, 'pdftotext'] } : {}),
    ...(typeof values['folio-engine'] === 'string' ? { folioEngine: values['folio-engine'] } : {}),
  });
  console.log(JSON.stringify(result.sets.map((s) => ({ set: s.set, engines: s.engines.map((e) => ({ engine: e.engine, headline: e.score?.headline ?? 'not run', pagesPerSecond: e.pagesPerSecond })) }))));
  return 0;
}
