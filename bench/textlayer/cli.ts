/** `folio bench textlayer [--runs N] [--es URL] [--workers N] [--phases a,b] [--out DIR] [--dir DIR]...` */
import { parseArgs } from 'node:util';
import { ConfigurationError, describeError } from '../../core/errors.ts';
import { runTextLayerBench } from './run.ts';

export const TEXTLAYER_USAGE =
  'folio bench textlayer [--runs N] [--es URL] [--workers N] [--phases extract,pages,process,ingest-ndjson,ingest-es] [--out DIR] [--dir DIR]... [--timeout-s S]';

/** Parse the suite's flags, run it, print the table; resolves to the exit code. */
export async function textLayerCli(argv: readonly string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        runs: { type: 'string' },
        'timeout-s': { type: 'string' },
        es: { type: 'string' },
        workers: { type: 'string' },
        phases: { type: 'string' },
        out: { type: 'string' },
        dir: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench textlayer: ${describeError(error)}; usage: ${TEXTLAYER_USAGE}`, { cause: error });
  }
  if (values.help) {
    console.log(TEXTLAYER_USAGE);
    return 0;
  }
  const runs = values.runs === undefined ? undefined : Number(values.runs);
  const timeoutS = values['timeout-s'] === undefined ? undefined : Number(values['timeout-s']);
  const workers = values.workers === undefined ? undefined : Number(values.workers);
  // pdftotext always runs: every ratio needs it.
  const phases =
    values.phases === undefined
      ? undefined
      : [
          'pdftotext',
          ...values.phases
            .split(',')
            .map((p) => p.trim())
            .filter(Boolean),
        ];
  const result = await runTextLayerBench({
    ...(timeoutS === undefined ? {} : { timeoutMs: timeoutS * 1000 }),
    ...(runs === undefined ? {} : { runs }),
    ...(values.es ? { es: values.es } : {}),
    ...(workers === undefined ? {} : { workers }),
    ...(phases === undefined ? {} : { phases }),
    ...(values.out ? { out: values.out } : {}),
    ...(values.dir ? { dirs: values.dir } : {}),
  });
  for (const p of result.phases) {
    const cpu = p.cpuSeconds === undefined ? '' : `, CPU ${p.cpuSeconds} s${p.esCpuSeconds === undefined ? '' : ` + ES ${p.esCpuSeconds} s`}`;
    console.log(
      `${p.phase.padEnd(14)} ${p.skipped ? `skipped: ${p.skipped}` : `${p.pagesPerSecond} pages/s${p.vsPdftotext === undefined ? '' : ` (${p.vsPdftotext}× pdftotext)`}${cpu}`}`,
    );
  }
  return 0;
}
