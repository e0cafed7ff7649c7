/** `folio bench factory --build [--seed S] [--documents N] [--families a,b] [--no-scans]`: (re)build the factory. */
import { parseArgs } from 'node:util';
import { ConfigurationError, describeError } from '../../core/errors.ts';
import { buildFactory, FACTORY_DIR } from './build.ts';

export const FACTORY_USAGE =
  'folio bench factory --build [--seed S] [--documents N] [--families report,forms,word,slides,papers,scripts] [--no-scans] [--out DIR]; then: folio bench quality --set factory,factory-scans';

/**
 * The `factory` bench suite: builds the documents, truth and tests under `.cache/factory`.
 *
 * @example
 * await runFactoryBench({ argv: ['--build', '--documents', '12'] });
 */
export async function runFactoryBench({ argv }: Readonly<{ argv: readonly string[] }>): Promise<number> {
  let values;
  try {
    values = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        build: { type: 'boolean' },
        seed: { type: 'string' },
        documents: { type: 'string' },
        families: { type: 'string' },
        'no-scans': { type: 'boolean' },
        out: { type: 'string' },
        quick: { type: 'boolean' },
        help: { type: 'boolean' },
      },
    }).values;
  } catch (error) {
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench factory: ${describeError(error)}; usage: ${FACTORY_USAGE}`, { cause: error });
  }
  if (values.help || !values.build) {
    console.log(FACTORY_USAGE);
    return values.help ? 0 : 2;
  }
  const documents = values.documents === undefined ? (values.quick ? 12 : 180) : Number(values.documents);
  if (!Number.isInteger(documents) || documents < 1)
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench factory: expected \`--documents\` to be an integer from 1 and up, got \`${values.documents}\``);
  const manifest = await buildFactory({
    documents,
    outDir: values.out ?? FACTORY_DIR,
    scans: !values['no-scans'],
    ...(values.seed === undefined ? {} : { seed: values.seed }),
    ...(values.families === undefined ? {} : { families: values.families.split(',').map((f) => f.trim()) }),
  });
  return manifest.documents.length > 0 ? 0 : 1;
}
