/**
 * `folio bench all [--quick] [--engine E] [--es URL]`: every suite that can run here, then
 * REPORT.md with plots, then README's figures table (when README has the markers). A suite that
 * cannot run is noted in the report with the reason; it does not stop the others.
 */
import { parseArgs } from 'node:util';
import { ConfigurationError, describeError } from '../../core/errors.ts';
import { runDoclingBench } from '../groundtruth/run.ts';
import { runOlmocrBench } from '../olmocr/runner.ts';
import { QUALITY_SETS } from '../quality/sets/index.ts';
import { updateReadmeFigures } from '../readme-table.ts';
import { EXTERNAL_SUITES, loadExternalSuite } from '../suites.ts';
import { runTextLayerBench } from '../textlayer/run.ts';
import { collectResults } from './collect.ts';
import { writeReport } from './write.ts';

export const ALL_USAGE =
  'folio bench all [--quick] [--skip olmocr,docling,textlayer,parse,ocr,decode,math,serve,retrieval] [--engine auto|text|onnx|…] [--es URL] [--results DIR]';

const DATASET = '../shared/data/olmocr-bench-dev/dataset.jsonl';

/** Run everything and write the report; resolves to the exit code (0 unless configuration fails). */
export async function allCli(argv: readonly string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        quick: { type: 'boolean' },
        skip: { type: 'string' },
        engine: { type: 'string' },
        es: { type: 'string' },
        results: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench all: ${describeError(error)}; usage: ${ALL_USAGE}`, { cause: error });
  }
  if (values.help) {
    console.log(ALL_USAGE);
    return 0;
  }
  const resultsDir = values.results ?? 'bench/results';
  const engine = values.engine ?? 'auto';
  const notes: string[] = [];
  const skip = new Set(
    (values.skip ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  const step = async (name: string, fn: () => Promise<unknown>): Promise<void> => {
    // Skipped suites keep their earlier result files, which the report still reads.
    if (skip.has(name.split(' ')[0]!)) return;
    console.error(`bench all: ${name}`);
    try {
      await fn();
    } catch (error) {
      notes.push(`${name}: ${describeError(error)}`);
      console.error(`bench all: ${name} did not run: ${describeError(error)}`);
    }
  };
  const olmocrEngines = ['pdftotext', ...(values.quick ? [] : ['tesseract']), engine];
  for (const e of olmocrEngines) await step(`olmocr ${e}`, () => runOlmocrBench({ dataset: DATASET, engine: e, out: `${resultsDir}/olmocr/${e}` }));
  for (const e of ['pdftotext', engine]) await step(`docling ${e}`, () => runDoclingBench({ engine: e, out: `${resultsDir}/docling/${e}` }));
  await step('textlayer', () => runTextLayerBench({ runs: values.quick ? 1 : 3, out: resultsDir, ...(values.es ? { es: values.es } : {}) }));
  for (const suite of EXTERNAL_SUITES) {
    await step(suite, async () => {
      const fn = await loadExternalSuite(suite);
      // `quality` would run the scans again: here they are a suite of their own.
      const sets = suite === 'quality' ? ['--set', Object.keys(QUALITY_SETS).join(',')] : [];
      await fn({ argv: [...(values.quick ? ['--quick'] : []), ...sets], resultsDir });
    });
  }
  const report = await writeReport({ results: await collectResults({ resultsDir }), notes });
  console.error(`bench all: wrote ${report}`);
  try {
    const rows = await updateReadmeFigures({ resultsDir });
    console.error(`bench all: README figures table updated (${rows} rows)`);
  } catch (error) {
    console.error(`bench all: README not updated: ${describeError(error)}`);
  }
  return 0;
}
