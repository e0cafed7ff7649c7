import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { ConfigurationError, describeError } from '../../core/errors.ts';
import { machineInfo, machineMarkdown, markdownTable, peakRssMiB, round } from '../common/index.ts';
import { type CorpusDocument, defaultCorpus, loadCorpus, repeatCorpus } from './corpus.ts';
import { processDocuments, type WorkCounts } from './work.ts';

export interface ParseBenchOptions {
  /**
   * Pages to process: the corpus is repeated, whole documents at a time, up to this count.
   * @default 10000
   */
  readonly pages?: number;
  /**
   * Worker threads for the parallel run (0 skips it).
   * @default os.availableParallelism()
   */
  readonly workers?: number;
  /**
   * Folders holding the corpus (`*.md` files, or fixture folders with `input.md`).
   * @default ['../shared/data/docling-dev/deepseek-md/sources', 'test/fixtures/markdown']
   */
  readonly corpus?: readonly string[];
  /**
   * Folder for `parse.md` and `parse.json`.
   * @default 'bench/results'
   */
  readonly resultsDir?: string;
  /** Flags from `folio bench parse …` (`--pages N --workers N`); explicit options win. */
  readonly argv?: readonly string[];
}

export interface ParseBenchRun {
  readonly mode: string;
  readonly threads: number;
  readonly pages: number;
  readonly seconds: number;
  readonly pagesPerSecond: number;
  /** Pages per second of CPU time (all threads): what an idle machine would approach. */
  readonly pagesPerCpuSecond: number;
  readonly msPerPage: number;
}

export interface ParseBenchReport {
  readonly corpus: { readonly documents: number; readonly pages: number; readonly bytes: number };
  readonly counts: WorkCounts;
  readonly runs: readonly ParseBenchRun[];
  readonly peakRssMiB: number;
  readonly loadAverage: readonly number[];
  readonly targetPagesPerSecond: number;
  readonly markdown: string;
}

const target = 500;

/**
 * Parse + quality gate + merge + chunk throughput over the fixture corpus repeated to 10,000 pages,
 * on one thread and on all cores; writes `parse.md` and `parse.json`.
 *
 * @example
 * const report = await runParseBench({ pages: 2000 })
 * console.log(report.runs.map((run) => run.pagesPerSecond))
 */
export async function runParseBench(options: Readonly<ParseBenchOptions> = {}): Promise<ParseBenchReport> {
  const flags = readFlags(options.argv ?? []);
  const { pages = flags.pages ?? 10000, workers = flags.workers ?? os.availableParallelism(), corpus = defaultCorpus, resultsDir = 'bench/results' } = options;
  if (!Number.isInteger(pages) || pages < 1)
    throw new ConfigurationError('FOLIO_BENCH_OPTIONS', `Expected \`pages\` to be an integer from 1 and up, got \`${String(pages)}\` (${typeof pages})`);
  if (!Number.isInteger(workers) || workers < 0)
    throw new ConfigurationError('FOLIO_BENCH_OPTIONS', `Expected \`workers\` to be an integer from 0 and up, got \`${String(workers)}\` (${typeof workers})`);
  const base = loadCorpus(corpus);
  if (base.length === 0) throw new ConfigurationError('FOLIO_BENCH_OPTIONS', `no Markdown found in \`corpus\` ${JSON.stringify(corpus)}`);
  const documents = repeatCorpus(base, pages);
  const warmup = repeatCorpus(base, Math.min(300, pages));
  const total = documents.reduce((sum, document) => sum + document.pages.length, 0);

  processDocuments(warmup);
  const cpu = process.cpuUsage();
  const start = performance.now();
  const counts = processDocuments(documents);
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const runs: ParseBenchRun[] = [summarise('single thread', 1, total, ms, (used.user + used.system) / 1000)];
  if (workers > 0) runs.push(await parallel(documents, warmup, workers, total));

  const bytes = base.reduce((sum, document) => sum + document.pages.reduce((s, page) => s + Buffer.byteLength(page), 0), 0);
  const report = {
    corpus: { documents: base.length, pages: base.reduce((sum, document) => sum + document.pages.length, 0), bytes },
    counts,
    runs,
    peakRssMiB: peakRssMiB(),
    loadAverage: os.loadavg().map((value) => round(value, 1)),
    targetPagesPerSecond: target,
  };
  const markdown = render(report);
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(join(resultsDir, 'parse.md'), markdown);
  writeFileSync(join(resultsDir, 'parse.json'), `${JSON.stringify({ ...report, machine: machineInfo() }, null, 2)}\n`);
  return { ...report, markdown };
}

async function parallel(documents: readonly CorpusDocument[], warmup: readonly CorpusDocument[], workers: number, total: number): Promise<ParseBenchRun> {
  const shares: CorpusDocument[][] = Array.from({ length: workers }, () => []);
  documents.forEach((document, i) => shares[i % workers]!.push(document));
  const start = performance.now();
  const results = await Promise.all(
    shares.map(
      (share) =>
        new Promise<{ ms: number; cpuMs: number }>((resolve, reject) => {
          const worker = new Worker(new URL('./worker.ts', import.meta.url), { workerData: { documents: share, warmup } });
          worker.once('message', resolve);
          worker.once('error', reject);
          worker.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`parse bench worker exited with ${code}`))));
        }),
    ),
  );
  const wall = performance.now() - start;
  // Throughput from the slowest thread's timed work; thread start-up and warm-up are left out but reported.
  const slowest = Math.max(...results.map((result) => result.ms));
  const run = summarise(
    `${workers} worker threads`,
    workers,
    total,
    slowest,
    results.reduce((sum, result) => sum + result.cpuMs, 0),
  );
  return { ...run, mode: `${run.mode} (${round(wall / 1000, 1)} s with start-up)` };
}

function summarise(mode: string, threads: number, pages: number, ms: number, cpuMs: number): ParseBenchRun {
  return {
    mode,
    threads,
    pages,
    seconds: round(ms / 1000, 2),
    pagesPerSecond: Math.round(pages / (ms / 1000)),
    pagesPerCpuSecond: Math.round((pages / (cpuMs / 1000)) * threads),
    msPerPage: round(ms / pages, 3),
  };
}

function render(report: Omit<ParseBenchReport, 'markdown'>): string {
  const best = Math.max(...report.runs.map((run) => run.pagesPerSecond));
  return [
    '# Parse benchmark: OCR Markdown → elements → quality gate → chunks',
    '',
    `Corpus: ${report.corpus.documents} documents, ${report.corpus.pages} pages (${Math.round(report.corpus.bytes / 1024)} KiB) of DeepSeek-OCR Markdown and parser fixtures, repeated to ${report.runs[0]?.pages ?? 0} pages. Each page is parsed (\`parsePage\`), graded (\`checkPage\`), then each document merged (\`mergeContinuedTables\`) and chunked (\`chunkDocument\`, 512 tokens). ${report.counts.elements} elements, ${report.counts.chunks} chunks, ${report.counts.failedPages} pages failed the gate (the loop, broken-formula, unclosed-HTML and empty fixtures, by design). Load average at the end: ${report.loadAverage.join(' / ')}.`,
    '',
    markdownTable(
      ['run', 'pages', 'seconds', 'pages/s', 'pages/s of CPU time × threads', 'ms/page'],
      report.runs.map((run) => [run.mode, run.pages, run.seconds, run.pagesPerSecond, run.pagesPerCpuSecond, run.msPerPage]),
    ),
    '',
    `**pages/s=${best} (target ${report.targetPagesPerSecond}: ${best >= report.targetPagesPerSecond ? 'met' : 'NOT met'}) peak RSS=${report.peakRssMiB} MiB**`,
    '',
    '- Throughput is timed after an untimed warm-up of 300 pages per thread (JIT). Worker threads each take every n-th document; their figure uses the slowest thread, start-up excluded (shown beside it).',
    '- "pages/s of CPU time × threads" divides by the CPU time the threads got: on a shared, loaded machine it is what the stage would do with its cores to itself.',
    '- Peak RSS is the whole process (main thread and workers).',
    '',
    machineMarkdown(machineInfo()),
    '',
  ].join('\n');
}

function readFlags(argv: readonly string[]): { pages?: number; workers?: number } {
  if (argv.length === 0) return {};
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], options: { pages: { type: 'string' }, workers: { type: 'string' } }, strict: true }));
  } catch (error) {
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench parse: ${describeError(error)}; usage: folio bench parse [--pages N] [--workers N]`, {
      cause: error,
    });
  }
  return {
    ...(values.pages === undefined ? {} : { pages: Number(values.pages) }),
    ...(values.workers === undefined ? {} : { workers: Number(values.workers) }),
  };
}
