/** `folio bench docling [--data DIR] [--engine E] [--out DIR] [--markdown DIR]` */
import { parseArgs } from 'node:util';
import { ConfigurationError, describeError } from '../../core/errors.ts';
import { runDoclingBench } from './run.ts';

export const DOCLING_USAGE = 'folio bench docling [--data DIR] [--engine auto|text|pdftotext|tesseract|…] [--out DIR] [--markdown DIR]';

/** Parse the suite's flags and run it; resolves to the exit code. */
export async function doclingCli(argv: readonly string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        data: { type: 'string' },
        engine: { type: 'string' },
        out: { type: 'string' },
        markdown: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench docling: ${describeError(error)}; usage: ${DOCLING_USAGE}`, { cause: error });
  }
  if (values.help) {
    console.log(DOCLING_USAGE);
    return 0;
  }
  const result = await runDoclingBench({
    ...(values.data ? { data: values.data } : {}),
    ...(values.engine ? { engine: values.engine } : {}),
    ...(values.out ? { out: values.out } : {}),
    ...(values.markdown ? { markdown: values.markdown } : {}),
  });
  console.log(JSON.stringify({ engine: result.engine, ...result.mean }));
  return 0;
}
