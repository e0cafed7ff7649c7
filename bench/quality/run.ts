/**
 * `folio bench quality`: every named set, Folio beside the baselines on the same pages in one
 * run; results to `bench/results/quality.{md,json}`. A baseline that cannot be installed or run
 * is reported as "not run" with the reason, never as a score.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigurationError } from '../../core/errors.ts';
import type { MachineInfo } from '../common/machine.ts';
import { machineInfo } from '../common/machine.ts';
import { CACHE_DIR, folioEngine, pdftotextEngine, pymupdf4llmEngine, TABULA_MODES, tabulaEngine, tesseractEngine } from './engines/index.ts';
import { qualityMarkdown } from './report.ts';
import { QUALITY_SETS } from './sets/index.ts';
import type { QualityEngine, SetScore } from './types.ts';

export interface QualityBenchOptions {
  /** Set names (keys of `QUALITY_SETS`). @default every set */
  readonly sets?: readonly string[];
  /** Engine names to run (`folio-auto`, `pdftotext`, `pymupdf4llm`, `tabula-guess`, …). @default all */
  readonly engines?: readonly string[];
  /** `folio convert --engine` value for Folio. @default 'auto' */
  readonly folioEngine?: string;
  /** Folder for `quality.md` / `quality.json`. @default 'bench/results' */
  readonly resultsDir?: string;
  /** Folder for the converted Markdown. @default '.cache/quality/out' */
  readonly outputDir?: string;
  /**
   * At most this many documents per set, spread evenly over the set's list (the factory's list is
   * grouped by family, so every family keeps its share). @default every document
   */
  readonly documents?: number;
  /** @default console.error */
  readonly log?: (line: string) => void;
}

/** `n` items spread evenly over `items`, in order. */
export function spread<T>(items: readonly T[], n: number): T[] {
  if (n >= items.length) return [...items];
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]!);
}

export interface EngineSetResult {
  readonly engine: string;
  readonly kind: 'folio' | 'baseline';
  /** Set when the engine could not run: the reason; no score then. */
  readonly notRun?: string;
  readonly score?: SetScore;
  readonly pages: number;
  readonly wallMs?: number;
  readonly pagesPerSecond?: number;
  readonly failures: readonly string[];
}

export interface SetResult {
  readonly set: string;
  /** When this set was last run (ISO); sets not rerun keep theirs. */
  readonly date?: string;
  readonly description: string;
  readonly columns: readonly string[];
  readonly documents: number;
  readonly pages: number;
  readonly engines: readonly EngineSetResult[];
}

export interface QualityBenchResult {
  readonly date: string;
  readonly sets: readonly SetResult[];
  readonly versions: Readonly<Record<string, string>>;
  readonly machine: MachineInfo;
}

/** All engines, Folio first. */
export function qualityEngines(folio = 'auto'): QualityEngine[] {
  return [folioEngine(folio), pdftotextEngine, pymupdf4llmEngine, tesseractEngine, ...TABULA_MODES.map(tabulaEngine)];
}

/**
 * Run the quality bench.
 *
 * @example
 * const result = await runQualityBenchSets({ sets: ['icdar'] })
 * console.log(result.sets[0].engines.map((e) => [e.engine, e.score?.headline]))
 */
export async function runQualityBenchSets(options: Readonly<QualityBenchOptions> = {}): Promise<QualityBenchResult> {
  const { resultsDir = 'bench/results', outputDir = path.join(CACHE_DIR, 'out'), log = (line: string) => console.error(line) } = options;
  const setNames = options.sets ?? Object.keys(QUALITY_SETS);
  for (const name of setNames) {
    if (!QUALITY_SETS[name])
      throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `unknown quality set \`${name}\`; expected one of ${Object.keys(QUALITY_SETS).join(', ')}`);
  }
  let engines = qualityEngines(options.folioEngine);
  if (options.engines) {
    const known = engines.map((e) => e.name);
    for (const e of options.engines)
      if (!known.includes(e)) throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `unknown engine \`${e}\`; expected one of ${known.join(', ')}`);
    engines = engines.filter((e) => options.engines!.includes(e.name));
  }
  const prepared = new Map<string, string | undefined>();
  const versions: Record<string, string> = {};
  const sets: SetResult[] = [];
  for (const name of setNames) {
    const set = QUALITY_SETS[name]!();
    // A set that cannot be made here (its generator's tool is missing) is reported as not run.
    const documents = await set.documents().catch((error: unknown) => {
      if (!(error instanceof ConfigurationError) || error.code !== 'FOLIO_BENCH_TOOL') throw error;
      return error;
    });
    if (documents instanceof ConfigurationError) {
      log(`quality: ${name}: not run: ${documents.message}`);
      const notRun = engines
        .filter((e) => (!e.tablesOnly || set.tables) && (!e.scansOnly || set.scanned))
        .map((e): EngineSetResult => ({ engine: e.name, kind: e.kind, notRun: documents.message, pages: 0, failures: [] }));
      sets.push({ set: name, description: set.description, columns: set.columns, documents: 0, pages: 0, engines: notRun });
      continue;
    }
    if (options.documents !== undefined && options.documents < documents.length) {
      log(`quality: ${name}: ${options.documents} of ${documents.length} documents, spread over the set`);
      documents.splice(0, documents.length, ...spread(documents, options.documents));
    }
    const pages = documents.reduce((s, d) => s + d.pages, 0);
    log(`quality: ${name}: ${documents.length} PDFs, ${pages} pages`);
    const results: EngineSetResult[] = [];
    for (const engine of engines) {
      if ((engine.tablesOnly && !set.tables) || (engine.scansOnly && !set.scanned)) continue;
      if (!prepared.has(engine.name)) {
        log(`quality: preparing ${engine.name}`);
        const reason = await engine.prepare().catch((error: unknown) => `prepare failed: ${error instanceof Error ? error.message : String(error)}`);
        prepared.set(engine.name, reason);
        if (reason === undefined) versions[engine.name] = await engine.version().catch(() => engine.name);
      }
      const reason = prepared.get(engine.name);
      if (reason !== undefined) {
        log(`quality: ${name}: ${engine.name} not run: ${reason}`);
        results.push({ engine: engine.name, kind: engine.kind, notRun: reason, pages, failures: [] });
        continue;
      }
      const out = path.join(outputDir, name, engine.name);
      await rm(out, { recursive: true, force: true });
      await mkdir(out, { recursive: true });
      const run = await engine.convert(documents, out);
      const score = await set.score(out, documents);
      const pagesPerSecond = pages / (run.wallMs / 1000);
      for (const f of run.failures) log(`quality: ${name}: ${engine.name}: ${f}`);
      log(`quality: ${name}: ${engine.name}: ${score.headlineName} ${score.headline.toFixed(3)}, ${pagesPerSecond.toFixed(2)} pages/s`);
      results.push({ engine: engine.name, kind: engine.kind, score, pages, wallMs: run.wallMs, pagesPerSecond, failures: run.failures });
    }
    sets.push({ set: name, description: set.description, columns: set.columns, documents: documents.length, pages, engines: results });
  }
  // Sets not run this time keep their last run's figures (each set says when it ran), so one
  // report names every set without re-running the slow ones.
  const date = new Date().toISOString();
  const earlier =
    (
      await readFile(path.join(resultsDir, 'quality.json'), 'utf8')
        .then((t) => JSON.parse(t) as QualityBenchResult)
        .catch(() => undefined)
    )?.sets ?? [];
  // Likewise engines: a set rerun for Folio alone keeps the baselines measured on the same pages.
  const ran = sets.map((s) => {
    const before = earlier.find((e) => e.set === s.set && e.documents === s.documents && e.pages === s.pages);
    const others = before?.engines.filter((e) => !s.engines.some((mine) => mine.engine === e.engine)) ?? [];
    return { ...s, date, engines: [...s.engines, ...others] };
  });
  const kept = earlier.filter((s) => !setNames.includes(s.set)).map((s) => ({ ...s, date: s.date ?? date }));
  const order = Object.keys(QUALITY_SETS);
  const all = [...ran, ...kept].sort((a, b) => order.indexOf(a.set) - order.indexOf(b.set));
  const result: QualityBenchResult = { date, sets: all, versions: { ...versions }, machine: machineInfo() };
  await mkdir(resultsDir, { recursive: true });
  await writeFile(path.join(resultsDir, 'quality.json'), `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(path.join(resultsDir, 'quality.md'), qualityMarkdown(result));
  log(`quality: wrote ${path.join(resultsDir, 'quality.md')}`);
  return result;
}
