/** `folio bench furniture [--documents N] [--seed S]`: run {@link runFurnitureSet}, write `furniture.md` and `furniture.json`. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigurationError, describeError } from '../../core/errors.ts';
import type { FurnitureResult } from './run.ts';
import { runFurnitureSet } from './run.ts';

export const FURNITURE_USAGE = 'folio bench furniture [--documents N] [--seed S] [--threads N] [--quick]';

/**
 * The `furniture` bench suite.
 *
 * @example
 * await runFurnitureBench({ argv: ['--documents', '6'], resultsDir: 'bench/results' });
 */
export async function runFurnitureBench({ argv, resultsDir }: Readonly<{ argv: readonly string[]; resultsDir: string }>): Promise<FurnitureResult> {
  let values;
  try {
    values = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: { documents: { type: 'string' }, seed: { type: 'string' }, threads: { type: 'string' }, quick: { type: 'boolean' } },
    }).values;
  } catch (error) {
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench furniture: ${describeError(error)}; usage: ${FURNITURE_USAGE}`, { cause: error });
  }
  // `bench all --quick` passes --quick: one document of each of the first styles.
  const documents = values.documents === undefined ? (values.quick ? 4 : 16) : Number(values.documents);
  const threads = values.threads === undefined ? 2 : Number(values.threads);
  if (!Number.isInteger(documents) || documents < 1 || !Number.isInteger(threads) || threads < 1) {
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench furniture: --documents and --threads must be integers from 1 and up; usage: ${FURNITURE_USAGE}`);
  }
  const result = await runFurnitureSet({ documents, threads, ...(values.seed === undefined ? {} : { seed: values.seed }) });
  await mkdir(resultsDir, { recursive: true });
  await writeFile(join(resultsDir, 'furniture.json'), `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(join(resultsDir, 'furniture.md'), furnitureReport(result, `npx folio bench furniture ${argv.join(' ')}`.trim()));
  console.error(`bench furniture: wrote ${join(resultsDir, 'furniture.md')}`);
  return result;
}

/** The result as a Markdown table, overall and per house style. */
export function furnitureReport(result: FurnitureResult, command: string): string {
  const f = (x: number): string => x.toFixed(3);
  const lines = [
    '# Page furniture on OCR pages',
    '',
    `\`${command}\`: ${result.documents} generated documents (seed \`${result.seed}\`), ${result.pages} degraded scanned pages, Folio \`auto\`.`,
    'Precision and recall in character trigrams (letters and digits) of the pageHeader/pageFooter elements against the known furniture lines; body CER of the page Markdown against the known body text.',
    '',
    '| style | pages | precision | recall | body CER |',
    '|---|---|---|---|---|',
    ...result.byStyle.map((s) => `| ${s.style} | ${s.pages} | ${f(s.precision)} | ${f(s.recall)} | ${f(s.bodyCer)} |`),
    `| **all** | ${result.pages} | ${f(result.precision)} | ${f(result.recall)} | ${f(result.bodyCer)} |`,
    '',
  ];
  return lines.join('\n');
}
