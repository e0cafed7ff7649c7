/**
 * `folio bench textlayer`: pages per second through the text-layer route, beside poppler's
 * `pdftotext` on the same pages in the same run. Every phase runs several times in fresh processes
 * (so each run's peak RSS is its own); the table reports medians, the ratio to pdftotext, and CPU
 * seconds (Folio's, and a local Elasticsearch's) so a figure on a shared machine can be read.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultWorkers } from '../../cli/options.ts';
import { ConfigurationError } from '../../core/errors.ts';
import { copyCorpus } from '../common/copy-corpus.ts';
import type { MachineInfo } from '../common/machine.ts';
import { machineInfo, machineMarkdown } from '../common/machine.ts';
import { markdownTable } from '../common/markdown-table.ts';
import { median, round } from '../common/stats.ts';
import { requireTool, runChild } from '../common/tools.ts';
import { ingestOnce } from './ingest.ts';
import type { BenchPdf } from './inputs.ts';
import { DEFAULT_TEXTLAYER_DIRS, listBenchPdfs } from './inputs.ts';
import type { WorkerReport } from './worker.ts';
import { WORKER_PHASES } from './worker.ts';

export interface TextLayerBenchOptions {
  /**
   * Folders of PDFs.
   * @default DEFAULT_TEXTLAYER_DIRS (docling-dev/pdf and gnarly)
   */
  readonly dirs?: readonly string[];
  /**
   * Timed runs per phase (medians are reported).
   * @default 3
   */
  readonly runs?: number;
  /** Elasticsearch for the end-to-end phase; skipped when absent. @default process.env.ELASTICSEARCH_URL */
  readonly es?: string;
  /**
   * `--workers` of the `ingest-*` phases.
   * @default undefined (the command's default: cores - 1, at least 2, at most 4; 0 on one core)
   */
  readonly workers?: number;
  /**
   * Phases to run (pdftotext always runs: the ratios need it).
   * @default every phase
   */
  readonly phases?: readonly string[];
  /** Where `textlayer.md` and `textlayer.json` go. @default 'bench/results' */
  readonly out?: string;
  /**
   * Limit for one run of one phase, in ms; a run past it fails the phase (noted, not fatal).
   * @default 600000
   */
  readonly timeoutMs?: number;
  /** @default console.error */
  readonly log?: (line: string) => void;
}

export interface PhaseResult {
  readonly phase: string;
  readonly description: string;
  readonly pages: number;
  readonly runsMs: readonly number[];
  readonly medianMs: number;
  readonly pagesPerSecond: number;
  /** Median peak RSS of the runs, MiB. */
  readonly peakRssMiB?: number;
  /** Median CPU seconds of the Folio process (all threads) per run. */
  readonly cpuSeconds?: number;
  /** Median CPU seconds of the local Elasticsearch per run (`ingest-es`). */
  readonly esCpuSeconds?: number;
  /** pagesPerSecond / pdftotext's. */
  readonly vsPdftotext?: number;
  readonly failures: number;
  /** Runs that covered fewer pages than the corpus (left out of the median when others exist). */
  readonly incompleteRuns?: number;
  /** Why the phase did not run. */
  readonly skipped?: string;
}

export interface TextLayerBenchResult {
  readonly files: number;
  readonly pages: number;
  readonly skippedFiles: readonly string[];
  readonly phases: readonly PhaseResult[];
  /** `--workers` of the ingest phases (given, or the command's default on this machine). */
  readonly workers?: number;
  /** Whether `workers` was the command's default rather than given. */
  readonly defaultWorkers?: boolean;
  readonly machine: MachineInfo;
}

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  pdftotext: 'poppler pdftotext, one process per PDF (text only, no structure)',
  extract: 'extraction step: PDFium characters of every page (readPageText), one thread',
  pages: 'extraction + text-layer analysis → Markdown → elements + quality gate, one thread',
  process: 'pages + chunking (processDocument, engine text), one thread',
  'ingest-ndjson': '`folio ingest` command into NDJSON, start-up to exit (engine text, no embeddings)',
  'ingest-es': '`folio ingest` command into Elasticsearch, start-up to exit (engine text, no embeddings, fresh indices)',
  'ingest-es-x4': 'the same command over four copies of the PDFs (other paths, so four times the pages): start-up and warm-up spread over more pages',
};

/** Copies of the corpus in `ingest-es-x4`: a folder of PDFs as users ingest it is larger than this corpus. */
const COPIES = 4;

/** Every phase, in pipeline order. */
export const TEXTLAYER_PHASES: readonly string[] = ['pdftotext', ...WORKER_PHASES, 'ingest-ndjson', 'ingest-es', 'ingest-es-x4'];

interface RunSample {
  readonly ms: number;
  readonly rss?: number;
  readonly cpuSeconds?: number;
  readonly esCpuSeconds?: number;
  readonly failures: number;
  readonly pages?: number;
}

/**
 * Fold one phase's samples into its result row. Pages/s is the median of each run's own rate, so
 * a run that stopped early (fewer pages than the corpus) cannot pass for a fast one; such runs
 * are counted in `incompleteRuns`.
 */
function phaseResult(phase: string, pages: number, samples: readonly RunSample[]): PhaseResult {
  const runsMs = samples.map((r) => r.ms);
  const rss = samples.flatMap((r) => (r.rss === undefined ? [] : [r.rss]));
  const cpu = samples.flatMap((r) => (r.cpuSeconds === undefined ? [] : [r.cpuSeconds]));
  const esCpu = samples.flatMap((r) => (r.esCpuSeconds === undefined ? [] : [r.esCpuSeconds]));
  const complete = samples.filter((r) => (r.pages ?? pages) >= pages);
  const counted = complete.length > 0 ? complete : samples;
  const rates = counted.map((r) => (r.pages ?? pages) / (r.ms / 1000));
  return {
    phase,
    description: DESCRIPTIONS[phase] ?? phase,
    pages,
    runsMs: runsMs.map((ms) => round(ms, 1)),
    medianMs: round(median(counted.map((r) => r.ms)), 1),
    pagesPerSecond: round(median(rates), 1),
    ...(rss.length > 0 ? { peakRssMiB: median(rss) } : {}),
    ...(cpu.length > 0 ? { cpuSeconds: round(median(cpu), 2) } : {}),
    ...(esCpu.length > 0 ? { esCpuSeconds: round(median(esCpu), 2) } : {}),
    failures: samples.at(-1)?.failures ?? 0,
    ...(complete.length < samples.length ? { incompleteRuns: samples.length - complete.length } : {}),
  };
}

const skipped = (phase: string, reason: string): PhaseResult => ({
  phase,
  description: DESCRIPTIONS[phase] ?? phase,
  pages: 0,
  runsMs: [],
  medianMs: Number.NaN,
  pagesPerSecond: Number.NaN,
  failures: 0,
  skipped: reason,
});

async function pdftotextOnce(pdfs: readonly BenchPdf[]): Promise<RunSample> {
  let failures = 0;
  let peak = 0;
  const start = performance.now();
  for (const pdf of pdfs) {
    const r = await runChild({ command: 'pdftotext', args: ['-enc', 'UTF-8', pdf.path, '-'], captureStdout: false });
    if (r.code !== 0) failures++;
  }
  const ms = performance.now() - start;
  // A second, untimed pass under /usr/bin/time gives the peak RSS without slowing the timed one.
  for (const pdf of pdfs) {
    const r = await runChild({ command: 'pdftotext', args: ['-enc', 'UTF-8', pdf.path, '-'], captureStdout: false, measureMemory: true });
    peak = Math.max(peak, r.peakRssMiB ?? 0);
  }
  return { ms, ...(peak > 0 ? { rss: peak } : {}), failures };
}

async function workerOnce(phase: string, pdfs: readonly BenchPdf[], timeoutMs: number): Promise<RunSample> {
  const r = await runChild({ command: process.execPath, args: [WORKER, phase, ...pdfs.map((p) => p.path)], timeoutMs });
  if (r.code === 124)
    throw new Error(`timed out after ${timeoutMs / 1000} s: below ${round(pdfs.reduce((n, p) => n + p.pages, 0) / (timeoutMs / 1000), 2)} pages/s`);
  const line = r.stdout.trim().split('\n').at(-1) ?? '';
  if (r.code !== 0 || !line.startsWith('{')) throw new Error(`${phase} worker failed: ${r.stderr.trim().split('\n').slice(0, 4).join(' | ')}`);
  const report = JSON.parse(line) as WorkerReport;
  return { ms: report.ms, rss: report.peakRssMiB, cpuSeconds: report.cpuSeconds, failures: report.failures, pages: report.pages };
}

/**
 * Run the text-layer throughput bench and write `textlayer.md` and `textlayer.json`.
 *
 * @example
 * const result = await runTextLayerBench({ runs: 3 })
 * console.log(result.phases.map((p) => [p.phase, p.pagesPerSecond]))
 */
export async function runTextLayerBench(options: Readonly<TextLayerBenchOptions> = {}): Promise<TextLayerBenchResult> {
  const {
    dirs = DEFAULT_TEXTLAYER_DIRS,
    runs = 3,
    es = process.env['ELASTICSEARCH_URL'] || undefined,
    workers,
    phases: wanted = TEXTLAYER_PHASES,
    out = 'bench/results',
    timeoutMs = 600_000,
    log = (line: string) => console.error(line),
  } = options;
  if (!Number.isInteger(runs) || runs < 1)
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`runs\` to be an integer from 1 up, got \`${runs}\` (${typeof runs})`);
  if (workers !== undefined && (!Number.isInteger(workers) || workers < 0))
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`workers\` to be an integer from 0 up, got \`${workers}\` (${typeof workers})`);
  const unknown = wanted.filter((p) => !TEXTLAYER_PHASES.includes(p));
  if (unknown.length > 0)
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`phases\` from ${TEXTLAYER_PHASES.join(', ')}, got \`${unknown.join(', ')}\``);
  await requireTool('pdftotext');
  await requireTool('pdfinfo');
  const { pdfs, skipped: skippedFiles } = await listBenchPdfs({ dirs });
  if (pdfs.length === 0) throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`dirs\` to hold PDFs, got none in ${dirs.join(', ')}`);
  const pages = pdfs.reduce((sum, p) => sum + p.pages, 0);
  log(`textlayer: ${pdfs.length} PDFs, ${pages} pages, ${runs} runs per phase`);

  // Runs are interleaved (every phase once, then again), so a change in machine load hits all
  // phases alike and the ratios of one run stay comparable.
  const files = pdfs.map((p) => p.path);
  const copiesDir = es && wanted.includes('ingest-es-x4') ? await copyCorpus(files, COPIES) : undefined;
  const ingest =
    (target: string | undefined, inputs: readonly string[] = files) =>
    () =>
      ingestOnce(inputs, { ...(target ? { es: target } : {}), ...(workers === undefined ? {} : { workers }), timeoutMs });
  const plan: { phase: string; pages: number; once: () => Promise<RunSample> }[] = [
    { phase: 'pdftotext', pages, once: () => pdftotextOnce(pdfs) },
    ...WORKER_PHASES.filter((phase) => wanted.includes(phase)).map((phase) => ({ phase, pages, once: () => workerOnce(phase, pdfs, timeoutMs) })),
    ...(wanted.includes('ingest-ndjson') ? [{ phase: 'ingest-ndjson', pages, once: ingest(undefined) }] : []),
    ...(es && wanted.includes('ingest-es') ? [{ phase: 'ingest-es', pages, once: ingest(es) }] : []),
    ...(es && copiesDir ? [{ phase: 'ingest-es-x4', pages: pages * COPIES, once: ingest(es, [copiesDir]) }] : []),
  ];
  const samples = new Map<string, RunSample[]>(plan.map((p) => [p.phase, []]));
  const failed = new Map<string, string>();
  for (let run = 1; run <= runs; run++) {
    for (const { phase, pages: expected, once } of plan) {
      if (failed.has(phase)) continue;
      log(`textlayer: run ${run}/${runs} ${phase}…`);
      try {
        const sample = await once();
        samples.get(phase)!.push(sample);
        log(
          `textlayer: ${phase}: ${round(sample.pages ?? expected, 0)} pages in ${round(sample.ms / 1000, 2)} s${sample.rss ? `, peak RSS ${sample.rss} MiB` : ''}`,
        );
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        log(`textlayer: ${phase} skipped: ${reason}`);
        failed.set(phase, reason);
      }
    }
  }
  if (copiesDir) await rm(copiesDir, { recursive: true, force: true });
  const phases: PhaseResult[] = plan.map(({ phase, pages: n }) =>
    failed.has(phase) ? skipped(phase, failed.get(phase)!) : phaseResult(phase, n, samples.get(phase)!),
  );
  for (const phase of ['ingest-es', 'ingest-es-x4'])
    if (!es && wanted.includes(phase)) phases.push(skipped(phase, 'no Elasticsearch: pass --es URL or set ELASTICSEARCH_URL (npm run es:start)'));

  const base = phases.find((p) => p.phase === 'pdftotext' && !p.skipped)?.pagesPerSecond;
  const withRatio = phases.map((p) => (base && !p.skipped ? { ...p, vsPdftotext: round(p.pagesPerSecond / base, 3) } : p));
  const result: TextLayerBenchResult = {
    files: pdfs.length,
    pages,
    skippedFiles,
    phases: withRatio,
    workers: workers ?? defaultWorkers(),
    defaultWorkers: workers === undefined,
    machine: machineInfo(),
  };
  await mkdir(out, { recursive: true });
  await writeFile(path.join(out, 'textlayer.json'), `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(path.join(out, 'textlayer.md'), textLayerMarkdown(result, dirs, runs));
  log(`textlayer: wrote ${path.join(out, 'textlayer.md')}`);
  return result;
}

/** The result as Markdown: one row per phase, medians, ratio to pdftotext, CPU time, peak RSS. */
export function textLayerMarkdown(result: TextLayerBenchResult, dirs: readonly string[], runs: number): string {
  const notes = (p: PhaseResult): string =>
    p.runsMs.join(', ') + (p.failures ? `; ${p.failures} failure records` : '') + (p.incompleteRuns ? `; ${p.incompleteRuns} incomplete run(s) left out` : '');
  const rows = result.phases.map((p) =>
    p.skipped
      ? [p.phase, p.description, 'skipped', '', '', '', '', '', p.skipped]
      : [
          p.phase,
          p.description,
          p.pagesPerSecond,
          p.medianMs,
          p.vsPdftotext === undefined ? '' : `${p.vsPdftotext}×`,
          p.cpuSeconds ?? '',
          p.esCpuSeconds ?? '',
          p.peakRssMiB ?? '',
          notes(p),
        ],
  );
  const by = (phase: string): PhaseResult | undefined => result.phases.find((p) => p.phase === phase && !p.skipped);
  const endToEnd = by('ingest-es') ?? by('ingest-ndjson');
  const ratio = (phase: string): string => {
    const p = by(phase);
    return p?.vsPdftotext === undefined ? `${phase} not measured` : `${p.vsPdftotext}× (${phase}) — ${p.vsPdftotext >= 0.5 ? 'met' : 'not met'}`;
  };
  const larger = by('ingest-es-x4');
  const targets = [
    `- End to end ≥ 100 pages/s: ${endToEnd ? `${endToEnd.pagesPerSecond} pages/s (${endToEnd.phase}, the command from start-up to exit) — ${endToEnd.pagesPerSecond >= 100 ? 'met' : 'not met'}` : 'not measured'}${larger ? `; over ${larger.pages} pages (${larger.phase}) ${larger.pagesPerSecond} pages/s — ${larger.pagesPerSecond >= 100 ? 'met' : 'not met'}` : ''}.`,
    `- Extraction ≥ ½ pdftotext: ${ratio('extract')}; with Folio's layout analysis and Markdown on top: ${ratio('pages')}.`,
  ];
  const workers =
    result.workers === undefined
      ? "the command's default `--workers`"
      : `\`--workers ${result.workers}\`${result.defaultWorkers ? ", the command's default on this machine" : ''}`;
  const { loadAverage, cores } = result.machine;
  const busy =
    loadAverage !== undefined && loadAverage > cores
      ? [
          `**Load average ${loadAverage} on ${cores} cores when measured:** other work held most of the machine, so every wall-clock figure here is low; the ratios and CPU seconds are the comparable part.`,
          '',
        ]
      : [];
  return [
    '# Text-layer throughput',
    '',
    `${result.files} PDFs, ${result.pages} pages from ${dirs.map((d) => `\`${d}\``).join(', ')}; ${runs} timed run(s) per phase, interleaved across phases, each in a fresh process; medians. The machine is shared: compare the ratios of one run, not absolute figures across runs; CPU seconds move less with the machine's load than wall time does.`,
    result.skippedFiles.length > 0 ? `Left out: ${result.skippedFiles.join('; ')}.` : '',
    '',
    `**The extraction step is \`extract\`** (PDFium's characters of every page); \`pages\` adds Folio's text-layer analysis, Markdown, parsing and the quality gate; \`process\` adds chunking — all three on one thread, timed after start-up. The \`ingest-*\` phases are the \`folio ingest\` command as a user runs it (${workers}), timed from spawn to exit: start-up, worker threads, index creation, the last flush and the refresh count. "ES CPU s" is the local Elasticsearch server's CPU time during the run, on the same cores.`,
    '',
    ...busy,
    markdownTable(['phase', 'what', 'pages/s', 'median ms', 'vs pdftotext', 'CPU s', 'ES CPU s', 'peak RSS MiB', 'runs (ms)'], rows),
    '',
    ...targets,
    '',
    machineMarkdown(result.machine),
    '',
    'Reproduce: `npx folio bench textlayer` (add `--es URL` for the Elasticsearch phase).',
    '',
  ].join('\n');
}
