/**
 * `folio bench speed`: every converter and `folio ingest` side by side in one run, each a whole
 * process timed from spawn to exit, runs interleaved (every phase once, then again) so a change in
 * the machine's load hits all phases alike; medians of wall time, CPU seconds and peak RSS, and
 * each converter's quality on the same pages from its first run.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ConfigurationError, describeError } from '../../core/errors.ts';
import { copyCorpus } from '../common/copy-corpus.ts';
import type { MachineInfo } from '../common/machine.ts';
import { machineInfo } from '../common/machine.ts';
import { median, round } from '../common/stats.ts';
import { folioEngine, pdftotextEngine, pymupdf4llmEngine, tesseractEngine } from '../quality/engines/index.ts';
import { QUALITY_SETS } from '../quality/sets/index.ts';
import type { QualityDocument, QualityEngine } from '../quality/types.ts';
import { ingestOnce } from '../textlayer/ingest.ts';
import { joinPdfs } from './corpus.ts';
import type { ConverterPhase, SpeedPhase } from './plan.ts';
import { phaseName, SPEED_SETS } from './plan.ts';
import { speedMarkdown } from './report.ts';

export interface SpeedBenchOptions {
  /** Sets from `folio bench quality` (born-digital ones get every converter, scanned ones Tesseract and Folio). @default SPEED_SETS */
  readonly sets?: readonly string[];
  /** The set whose PDFs `folio ingest` and the long document are made of. @default 'factory' */
  readonly ingestSet?: string;
  /** Timed runs per phase. @default 3 */
  readonly runs?: number;
  /** Elasticsearch for the `ingest-es` phases; left out when absent. @default process.env.ELASTICSEARCH_URL */
  readonly es?: string;
  /** Pages of the long document (a short one of about 100 pages is read beside it). @default 1600 */
  readonly longPages?: number;
  /** Leave pymupdf4llm out (its first use installs it from PyPI). @default false */
  readonly noPymupdf?: boolean;
  /** Documents per set, the first N (a quick look). @default all */
  readonly documents?: number;
  /** Where `speed.md` and `speed.json` go. @default 'bench/results' */
  readonly out?: string;
  readonly timeoutMs?: number;
  readonly log?: (line: string) => void;
}

/** One timed run of one phase. */
export interface SpeedSample {
  readonly wallMs: number;
  readonly cpuSeconds?: number;
  readonly peakRssMiB?: number;
  readonly pages: number;
  readonly chunks?: number;
  readonly failures: number;
}

export interface SpeedRow {
  readonly phase: string;
  readonly set: string;
  readonly kind: SpeedPhase['kind'];
  readonly pages: number;
  readonly runs: number;
  readonly medianWallMs: number;
  readonly pagesPerSecond: number;
  readonly cpuSeconds?: number;
  /** Pages per CPU second: throughput per core, whatever the threads. */
  readonly pagesPerCpuSecond?: number;
  readonly peakRssMiB?: number;
  readonly chunksPerSecond?: number;
  /** The set's headline quality figure for this converter's output (first run), and its name. */
  readonly quality?: number;
  readonly qualityName?: string;
  readonly failures: number;
  readonly skipped?: string;
}

export interface SpeedBenchResult {
  readonly rows: readonly SpeedRow[];
  readonly runs: number;
  readonly machine: MachineInfo;
  readonly versions: Readonly<Record<string, string>>;
}

/**
 * @example
 * const { rows } = await runSpeedSuite({ sets: ['docling'], runs: 1, noPymupdf: true })
 */
export async function runSpeedSuite(options: Readonly<SpeedBenchOptions> = {}): Promise<SpeedBenchResult> {
  const {
    sets: wanted = SPEED_SETS,
    ingestSet = 'factory',
    runs = 3,
    es = process.env['ELASTICSEARCH_URL'] || undefined,
    longPages = 1600,
    noPymupdf = false,
    documents: limit,
    out = 'bench/results',
    timeoutMs = 1_800_000,
    log = (line: string) => console.error(line),
  } = options;
  if (!Number.isInteger(runs) || runs < 1) throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`runs\` to be an integer from 1 up, got \`${runs}\``);
  const unknown = [...wanted, ingestSet].filter((name) => QUALITY_SETS[name] === undefined);
  if (unknown.length > 0)
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected sets from ${Object.keys(QUALITY_SETS).join(', ')}, got \`${unknown.join(', ')}\``);

  const scratch = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-speed-'));
  const docs = new Map<string, QualityDocument[]>();
  const phases: SpeedPhase[] = [];
  const skipped: SpeedRow[] = [];
  const versions: Record<string, string> = {};
  try {
    for (const name of wanted) {
      const set = QUALITY_SETS[name]!();
      const all = await set.documents();
      docs.set(set.name, limit === undefined ? all : all.slice(0, limit));
      const engines: QualityEngine[] = set.scanned
        ? [tesseractEngine, folioEngine('auto')]
        : [pdftotextEngine, folioEngine('text'), folioEngine('auto'), ...(noPymupdf ? [] : [pymupdf4llmEngine])];
      for (const engine of engines) {
        const reason = await engine.prepare();
        if (reason !== undefined) {
          skipped.push(skippedRow(`${set.name}/${engine.name}`, set.name, 'convert', reason));
          continue;
        }
        versions[engine.name] ??= await engine.version();
        phases.push({ kind: 'convert', set, engine });
      }
    }
    const corpusSet = QUALITY_SETS[ingestSet]!();
    const corpus = docs.get(corpusSet.name) ?? (await corpusSet.documents()).slice(0, limit);
    docs.set(corpusSet.name, corpus);
    // Into NDJSON always, into Elasticsearch when there is one: with the default embeddings and
    // without, the text route alone, and the corpus four times over (start-up spread thin).
    for (const target of es === undefined ? [undefined] : [undefined, es]) {
      const to = target === undefined ? {} : { es: target };
      phases.push({ kind: 'ingest', set: corpusSet, engine: 'auto', embed: 'none', copies: 1, ...to });
      phases.push({ kind: 'ingest', set: corpusSet, engine: 'auto', embed: 'local', copies: 1, ...to });
    }
    phases.push({ kind: 'ingest', set: corpusSet, engine: 'text', embed: 'none', copies: 1 });
    phases.push({ kind: 'ingest', set: corpusSet, engine: 'auto', embed: 'local', copies: 4, ...(es === undefined ? {} : { es }) });
    phases.push({ kind: 'long', set: corpusSet, pages: 100 }, { kind: 'long', set: corpusSet, pages: longPages });

    // The ingest phases' inputs, by copies of the corpus.
    const inputs = new Map<number, string[]>();
    // The long documents, by the pages asked for, joined once.
    const longs = new Map<number, QualityDocument>();
    const samples = new Map<string, SpeedSample[]>();
    const quality = new Map<string, { value: number; name: string }>();
    const failed = new Map<string, string>();
    for (let run = 1; run <= runs; run++) {
      for (const phase of phases) {
        const name = phaseName(phase);
        if (failed.has(name)) continue;
        log(`speed: run ${run}/${runs} ${name}…`);
        try {
          const sample = await once(phase, run === 1);
          samples.set(name, [...(samples.get(name) ?? []), sample]);
          log(
            `speed: ${name}: ${sample.pages} pages in ${round(sample.wallMs / 1000, 2)} s, CPU ${sample.cpuSeconds ?? '?'} s, RSS ${sample.peakRssMiB ?? '?'} MiB`,
          );
        } catch (error) {
          log(`speed: ${name} skipped: ${describeError(error)}`);
          failed.set(name, describeError(error));
        }
      }
    }
    const rows = phases.map((phase) => {
      const name = phaseName(phase);
      const reason = failed.get(name);
      return reason !== undefined ? skippedRow(name, phase.set.name, phase.kind, reason) : row(name, phase, samples.get(name) ?? [], quality.get(name));
    });
    const result: SpeedBenchResult = { rows: [...rows, ...skipped], runs, machine: machineInfo(), versions };
    await mkdir(out, { recursive: true });
    await writeFile(path.join(out, 'speed.json'), `${JSON.stringify(result, null, 2)}\n`);
    await writeFile(path.join(out, 'speed.md'), speedMarkdown(result));
    log(`speed: wrote ${path.join(out, 'speed.md')}`);
    return result;

    /** One converter over `documents`, its output scored for `scoreFor`'s set when given, then removed. */
    async function convertOnce(engine: QualityEngine, documents: readonly QualityDocument[], scoreFor?: ConverterPhase): Promise<SpeedSample> {
      const dir = await mkdtemp(path.join(scratch, 'out-'));
      try {
        const run = await engine.convert(documents, dir);
        if (scoreFor !== undefined) {
          const score = await scoreFor.set.score(dir, documents);
          quality.set(phaseName(scoreFor), { value: score.headline, name: score.headlineName });
        }
        const pages = documents.reduce((n, d) => n + d.pages, 0);
        return { wallMs: run.wallMs, cpuSeconds: run.cpuSeconds, peakRssMiB: run.peakRssMiB, pages, failures: run.failures.length };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }

    async function once(phase: SpeedPhase, scored: boolean): Promise<SpeedSample> {
      const documents = docs.get(phase.set.name)!;
      if (phase.kind === 'convert') return convertOnce(phase.engine, documents, scored ? phase : undefined);
      if (phase.kind === 'long') {
        let joined = longs.get(phase.pages);
        if (joined === undefined) {
          const { file, pages } = await joinPdfs(documents, phase.pages, scratch);
          joined = { name: path.basename(file, '.pdf'), pdf: file, pages };
          longs.set(phase.pages, joined);
        }
        return convertOnce(folioEngine('text'), [joined]);
      }
      const key = phase.copies;
      if (!inputs.has(key))
        inputs.set(
          key,
          phase.copies === 1
            ? documents.map((d) => d.pdf)
            : [
                await copyCorpus(
                  documents.map((d) => d.pdf),
                  phase.copies,
                  scratch,
                ),
              ],
        );
      const sample = await ingestOnce(inputs.get(key)!, { ...(phase.es ? { es: phase.es } : {}), engine: phase.engine, embed: phase.embed, timeoutMs });
      return {
        wallMs: sample.ms,
        cpuSeconds: sample.cpuSeconds,
        peakRssMiB: sample.rss,
        pages: sample.pages,
        chunks: sample.chunks,
        failures: sample.failures,
      };
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function row(name: string, phase: SpeedPhase, samples: readonly SpeedSample[], quality: { value: number; name: string } | undefined): SpeedRow {
  const pick = (f: (s: SpeedSample) => number | undefined): number[] => samples.flatMap((s) => (f(s) === undefined ? [] : [f(s)!]));
  const wall = median(samples.map((s) => s.wallMs));
  const pages = samples.at(-1)?.pages ?? 0;
  const cpu = pick((s) => s.cpuSeconds);
  const rss = pick((s) => s.peakRssMiB);
  const chunks = pick((s) => s.chunks);
  return {
    phase: name,
    set: phase.set.name,
    kind: phase.kind,
    pages,
    runs: samples.length,
    medianWallMs: round(wall, 0),
    pagesPerSecond: round(median(samples.map((s) => s.pages / (s.wallMs / 1000))), 2),
    ...(cpu.length > 0 ? { cpuSeconds: round(median(cpu), 2), pagesPerCpuSecond: round(pages / median(cpu), 2) } : {}),
    ...(rss.length > 0 ? { peakRssMiB: round(median(rss), 0) } : {}),
    ...(phase.kind === 'ingest' && phase.embed === 'local' && chunks.length > 0
      ? { chunksPerSecond: round(median(samples.map((s) => (s.chunks ?? 0) / (s.wallMs / 1000))), 1) }
      : {}),
    ...(quality ? { quality: round(quality.value, 3), qualityName: quality.name } : {}),
    failures: samples.at(-1)?.failures ?? 0,
  };
}

function skippedRow(phase: string, set: string, kind: SpeedPhase['kind'], reason: string): SpeedRow {
  return { phase, set, kind, pages: 0, runs: 0, medianWallMs: Number.NaN, pagesPerSecond: Number.NaN, failures: 0, skipped: reason };
}
