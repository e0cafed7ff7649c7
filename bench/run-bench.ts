/**
 * `folio bench <suite> [flags]`: the one entry point the CLI calls. Each suite parses its own flags
 * with `node:util` parseArgs; the return value is the process exit code.
 */
import { parseArgs } from 'node:util';
import { ConfigurationError, describeError } from '../core/errors.ts';
import { runOlmocrBench } from './olmocr/runner.ts';
import type { ExternalSuite } from './suites.ts';
import { EXTERNAL_SUITES, loadExternalSuite } from './suites.ts';

export const SUITES = ['olmocr', 'docling', 'textlayer', ...EXTERNAL_SUITES, 'all'] as const;

/** Default results folder, relative to the working directory (the repository root). */
export const RESULTS_DIR = 'bench/results';

const USAGE: Readonly<Record<string, string>> = {
  olmocr: 'folio bench olmocr --dataset FILE [--pdfs DIR] [--engine auto|text|onnx|pdftotext|tesseract] --out DIR [--markdown DIR] [--no-baseline]',
  docling: 'folio bench docling [--data DIR] [--engine auto|text|pdftotext|…] [--out DIR] [--markdown DIR]',
  textlayer: 'folio bench textlayer [--runs N] [--es URL] [--out DIR]',
  all: 'folio bench all [--quick] [--engine E]',
};

function parse<T extends Record<string, { type: 'string' | 'boolean'; short?: string }>>(suite: string, argv: readonly string[], options: T) {
  try {
    return parseArgs({ args: [...argv], options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: false, strict: true }).values;
  } catch (error) {
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench ${suite}: ${describeError(error)}; usage: ${USAGE[suite] ?? `folio bench ${suite}`}`, {
      cause: error,
    });
  }
}

async function olmocr(argv: readonly string[]): Promise<number> {
  const values = parse('olmocr', argv, {
    dataset: { type: 'string' },
    pdfs: { type: 'string' },
    engine: { type: 'string' },
    out: { type: 'string' },
    markdown: { type: 'string' },
    'no-baseline': { type: 'boolean' },
  });
  if (values.help) {
    console.log(USAGE['olmocr']);
    return 0;
  }
  if (!values.dataset || !values.out) throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench olmocr needs --dataset and --out; usage: ${USAGE['olmocr']}`);
  const result = await runOlmocrBench({
    dataset: values.dataset,
    out: values.out,
    ...(values.pdfs ? { pdfs: values.pdfs } : {}),
    ...(values.engine ? { engine: values.engine } : {}),
    ...(values.markdown ? { markdown: values.markdown } : {}),
    baseline: !values['no-baseline'],
  });
  console.log(JSON.stringify({ engine: result.engine, overall: result.score.overall, passed: result.score.passed, total: result.score.total }));
  return 0;
}

async function external(suite: ExternalSuite, argv: readonly string[]): Promise<number> {
  const fn = await loadExternalSuite(suite);
  const result = await fn({ argv, resultsDir: RESULTS_DIR });
  return typeof result === 'number' ? result : 0;
}

/**
 * Run one benchmark suite with its command-line flags; resolves to the exit code. Configuration
 * problems (unknown suite, bad flags, missing tool) reject with a ConfigurationError.
 *
 * @example
 * process.exitCode = await runBench('olmocr', ['--dataset', 'dataset.jsonl', '--out', 'out', '--engine', 'pdftotext'])
 */
export async function runBench(suite: string, argv: readonly string[]): Promise<number> {
  switch (suite) {
    case 'olmocr':
      return olmocr(argv);
    case 'docling': {
      const { doclingCli } = await import('./groundtruth/cli.ts');
      return doclingCli(argv);
    }
    case 'textlayer': {
      const { textLayerCli } = await import('./textlayer/cli.ts');
      return textLayerCli(argv);
    }
    case 'all': {
      const { allCli } = await import('./report/cli.ts');
      return allCli(argv);
    }
    default:
      if ((EXTERNAL_SUITES as readonly string[]).includes(suite)) return external(suite as ExternalSuite, argv);
      throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `unknown bench suite \`${suite}\`; expected one of ${SUITES.join(', ')}`);
  }
}

export { parse as parseSuiteArgs };
