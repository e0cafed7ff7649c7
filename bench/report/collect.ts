/**
 * Read whatever result files exist under `bench/results` into one typed summary, so the report and
 * the README table are generated from files (re-runnable, diffable) rather than from memory.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { DoclingBenchResult } from '../groundtruth/run.ts';
import type { OlmocrBenchResult } from '../olmocr/runner.ts';
import type { TextLayerBenchResult } from '../textlayer/run.ts';

export interface CollectedResults {
  readonly resultsDir: string;
  /** olmOCR-Bench results by engine folder name. */
  readonly olmocr: Readonly<Record<string, OlmocrBenchResult>>;
  readonly docling: Readonly<Record<string, DoclingBenchResult>>;
  readonly textlayer?: TextLayerBenchResult;
  /** `<suite>.json` written by the other suites (parse, ocr, decode, math, serve, retrieval, plugin, scans, quality, furniture, formats), as parsed JSON. */
  readonly suites: Readonly<Record<string, unknown>>;
}

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

async function subfolders(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * Collect the results under a folder: `olmocr/<engine>/score.json`, `docling/<engine>/docling.json`,
 * `textlayer.json` and `<suite>.json` for the external suites.
 *
 * @example
 * const results = await collectResults({ resultsDir: 'bench/results' })
 */
export async function collectResults({ resultsDir = 'bench/results' }: Readonly<{ resultsDir?: string }> = {}): Promise<CollectedResults> {
  const olmocr: Record<string, OlmocrBenchResult> = {};
  for (const engine of await subfolders(path.join(resultsDir, 'olmocr'))) {
    const r = await readJson<OlmocrBenchResult>(path.join(resultsDir, 'olmocr', engine, 'score.json'));
    if (r) olmocr[engine] = r;
  }
  const docling: Record<string, DoclingBenchResult> = {};
  for (const engine of await subfolders(path.join(resultsDir, 'docling'))) {
    const r = await readJson<DoclingBenchResult>(path.join(resultsDir, 'docling', engine, 'docling.json'));
    if (r) docling[engine] = r;
  }
  const textlayer = await readJson<TextLayerBenchResult>(path.join(resultsDir, 'textlayer.json'));
  const suites: Record<string, unknown> = {};
  for (const suite of [
    'parse',
    'ocr',
    'decode',
    'math',
    'serve',
    'retrieval',
    'embeddings',
    'plugin',
    'scans',
    'quality',
    'furniture',
    'sources',
    'formats',
    'speed',
  ]) {
    const r = await readJson<unknown>(path.join(resultsDir, `${suite}.json`));
    if (r !== undefined) suites[suite] = r;
  }
  return { resultsDir, olmocr, docling, ...(textlayer ? { textlayer } : {}), suites };
}
