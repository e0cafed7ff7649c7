/**
 * The formats bench: every file of `formats-dev` that has docling's Markdown beside it, read by
 * Folio, markitdown and pandoc; each output scored by the docling suite's similarity (1 − the
 * normalised edit distance of the plain texts, `bench/groundtruth/compare.ts`).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { compareDocument } from '../groundtruth/compare.ts';
import { type Baseline, CACHE_DIR, markitdown, pandoc } from './baselines.ts';
import { folioMarkdown } from './folio.ts';

export interface FormatsFileRow {
  readonly file: string;
  readonly format: string;
  readonly pages: number;
  readonly folioSeconds: number;
  /** Similarity per tool; 0 where the tool failed or has no reader for the format. */
  readonly similarity: Readonly<Record<string, number>>;
  readonly failures: Readonly<Record<string, string>>;
}

export interface FormatsFormatRow {
  readonly format: string;
  readonly files: number;
  readonly similarity: Readonly<Record<string, number>>;
}

export interface FormatsResult {
  readonly data: string;
  readonly tools: readonly string[];
  readonly versions: Readonly<Record<string, string>>;
  readonly skipped: Readonly<Record<string, string>>;
  readonly files: readonly FormatsFileRow[];
  readonly formats: readonly FormatsFormatRow[];
  /** Mean over files, per tool. */
  readonly mean: Readonly<Record<string, number>>;
  readonly folioPages: number;
  readonly folioSeconds: number;
  readonly folioPagesPerSecond: number;
}

export interface FormatsBenchOptions {
  /**
   * The data set: one folder per format, each with a `groundtruth/` folder of `<file>.md`.
   * @default '../shared/data/formats-dev'
   */
  readonly data?: string;
  /**
   * Run the baselines too.
   * @default true
   */
  readonly baselines?: boolean;
  /** @default console.error */
  readonly log?: (line: string) => void;
}

const similarity = (reference: string, candidate: string): number => 1 - compareDocument({ reference, candidate }).editDistance;
const mean = (values: readonly number[]): number => (values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length);

async function pairs(data: string): Promise<{ file: string; format: string; reference: string }[]> {
  const out: { file: string; format: string; reference: string }[] = [];
  for (const format of (await readdir(data, { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()) {
    const truth = path.join(data, format, 'groundtruth');
    const names = await readdir(truth).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.endsWith('.md')).sort()) {
      out.push({ file: path.join(data, format, name.slice(0, -3)), format, reference: await readFile(path.join(truth, name), 'utf8') });
    }
  }
  return out;
}

/**
 * @example
 * const result = await runFormatsSet({ data: '../shared/data/formats-dev' });
 * console.log(result.mean.folio, result.mean.markitdown);
 */
export async function runFormatsSet(options: Readonly<FormatsBenchOptions> = {}): Promise<FormatsResult> {
  const { data = '../shared/data/formats-dev', baselines = true, log = (line: string) => console.error(line) } = options;
  const items = await pairs(data);
  const tools = ['folio', ...(baselines ? [markitdown.name, pandoc.name] : [])];
  const versions: Record<string, string> = { folio: 'folio (this checkout), tables as pipe tables' };
  const skipped: Record<string, string> = {};
  const outputs = new Map<string, Awaited<ReturnType<Baseline['convert']>>>();
  for (const baseline of baselines ? [markitdown, pandoc] : []) {
    const problem = await baseline.prepare(log);
    if (problem !== undefined) {
      skipped[baseline.name] = problem;
      log(`formats: ${baseline.name} skipped: ${problem}`);
      continue;
    }
    const output = await baseline.convert(
      items.map((i) => i.file),
      path.join(CACHE_DIR, 'out', baseline.name),
    );
    versions[baseline.name] = output.version;
    outputs.set(baseline.name, output);
  }
  const files: FormatsFileRow[] = [];
  for (const { file, format, reference } of items) {
    const folio = await folioMarkdown(file);
    const sims: Record<string, number> = { folio: similarity(reference, folio.pipeMarkdown) };
    const failures: Record<string, string> = folio.failure === undefined ? {} : { folio: folio.failure };
    for (const [name, output] of outputs) {
      const markdown = output.markdown.get(file);
      sims[name] = markdown === undefined ? 0 : similarity(reference, markdown);
      const failure = output.failures.get(file);
      if (failure !== undefined) failures[name] = failure;
    }
    files.push({ file: path.relative(data, file), format, pages: folio.pages, folioSeconds: folio.seconds, similarity: sims, failures });
    log(`formats: ${path.relative(data, file)}: ${tools.map((t) => `${t} ${(sims[t] ?? 0).toFixed(3)}`).join(', ')}`);
  }
  const formats = [...new Set(files.map((f) => f.format))].map((format) => {
    const rows = files.filter((f) => f.format === format);
    return {
      format,
      files: rows.length,
      similarity: Object.fromEntries([...outputs.keys(), 'folio'].map((t) => [t, mean(rows.map((r) => r.similarity[t] ?? 0))])),
    };
  });
  const folioSeconds = files.reduce((s, f) => s + f.folioSeconds, 0);
  const folioPages = files.reduce((s, f) => s + f.pages, 0);
  return {
    data,
    tools: ['folio', ...outputs.keys()],
    versions,
    skipped,
    files,
    formats,
    mean: Object.fromEntries([...outputs.keys(), 'folio'].map((t) => [t, mean(files.map((r) => r.similarity[t] ?? 0))])),
    folioPages,
    folioSeconds,
    folioPagesPerSecond: folioSeconds === 0 ? 0 : folioPages / folioSeconds,
  };
}
