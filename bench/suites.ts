/**
 * Suites other engineers own (`bench/parse/`, `bench/ocr/`, …): each folder's `index.ts` exports a
 * `run…Bench(options)` function. They are loaded on demand so a suite that does not exist yet only
 * fails its own run, with a clear message.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigurationError } from '../core/errors.ts';

export const EXTERNAL_SUITES = [
  'parse',
  'ocr',
  'decode',
  'math',
  'serve',
  'retrieval',
  'plugin',
  'scans',
  'quality',
  'furniture',
  'factory',
  'sources',
  'formats',
  'lines',
  'speed',
] as const;
export type ExternalSuite = (typeof EXTERNAL_SUITES)[number];

/** What an external suite is called with. */
export interface ExternalSuiteOptions {
  /** The arguments after `folio bench <suite>`, for the suite's own flags. */
  readonly argv: readonly string[];
  /** Folder for result files (`<suite>.md`, `<suite>.json`). */
  readonly resultsDir: string;
}

export type ExternalSuiteFn = (options: ExternalSuiteOptions) => Promise<unknown>;

/**
 * Load an external suite's `run…Bench` function, or throw a ConfigurationError saying the suite is
 * not available yet.
 */
export async function loadExternalSuite(suite: ExternalSuite): Promise<ExternalSuiteFn> {
  const url = new URL(`./${suite}/index.ts`, import.meta.url);
  if (!existsSync(fileURLToPath(url))) {
    throw new ConfigurationError('FOLIO_BENCH_SUITE_MISSING', `bench suite \`${suite}\` is not available yet (no bench/${suite}/index.ts)`);
  }
  const mod = (await import(url.href)) as Record<string, unknown>;
  const entry = Object.entries(mod).find(([name, value]) => /^run\w*Bench$/.test(name) && typeof value === 'function');
  if (!entry) {
    throw new ConfigurationError(
      'FOLIO_BENCH_SUITE_MISSING',
      `bench suite \`${suite}\` is not available yet (bench/${suite}/index.ts exports no run…Bench function)`,
    );
  }
  return entry[1] as ExternalSuiteFn;
}
