/**
 * Score a folder of Markdown against an olmOCR-Bench dataset: find each test's page Markdown, run
 * the test, and aggregate per test type, per dataset file and overall.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigurationError } from '../../core/errors.ts';
import type { BenchTest, TestType } from './checks.ts';
import { parseTest, runCheck } from './checks.ts';
import type { MathCase } from './math.ts';
import { mathGlyphBook } from './math.ts';

export interface TestOutcome {
  readonly id: string;
  readonly pdf: string;
  readonly page: number;
  readonly type: TestType;
  /** Dataset file the test came from (`baseline` for the tests added per PDF). */
  readonly group: string;
  /** Fraction of the page's Markdown repeats that passed (1 or 0 with one repeat). */
  readonly score: number;
  readonly passed: boolean;
  readonly reason: string;
  /** Markdown files read, relative to the Markdown folder. */
  readonly files: readonly string[];
}

export interface TypeSummary {
  readonly total: number;
  readonly passed: number;
  /** Mean test score, a fraction. */
  readonly score: number;
}

export interface OlmocrScore {
  /** Mean of the per-group scores (each dataset file and `baseline`), as the benchmark reports it. */
  readonly overall: number;
  /** Mean score over all tests, ignoring groups. */
  readonly testPassRate: number;
  readonly total: number;
  readonly passed: number;
  readonly byType: Readonly<Record<string, TypeSummary>>;
  readonly byGroup: Readonly<Record<string, TypeSummary>>;
  readonly failures: readonly { readonly id: string; readonly type: TestType; readonly pdf: string; readonly reason: string }[];
  readonly tests: readonly TestOutcome[];
  /** Which test decided the math tests MathML missed: the glyph test in Chromium, or MathML only and why. */
  readonly mathCheck: string;
}

export interface LoadDatasetOptions {
  /** One or more `.jsonl` files, or a folder whose `*.jsonl` files are read. */
  readonly dataset: string;
}

/**
 * Read and validate the tests of one `.jsonl` file or every `.jsonl` in a folder.
 *
 * @example
 * const tests = await loadDataset({ dataset: '../shared/data/olmocr-bench-dev/dataset.jsonl' })
 */
export async function loadDataset({ dataset }: Readonly<LoadDatasetOptions>): Promise<{ test: BenchTest; group: string }[]> {
  let files: string[];
  try {
    files = dataset.endsWith('.jsonl')
      ? [dataset]
      : (await readdir(dataset))
          .filter((f) => f.endsWith('.jsonl'))
          .sort()
          .map((f) => path.join(dataset, f));
  } catch (error) {
    throw new ConfigurationError('FOLIO_BENCH_DATASET', `expected \`dataset\` to be a .jsonl file or a folder of them, got \`${dataset}\``, { cause: error });
  }
  if (files.length === 0) throw new ConfigurationError('FOLIO_BENCH_DATASET', `expected \`dataset\` to hold .jsonl files, got none in \`${dataset}\``);
  const out: { test: BenchTest; group: string }[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new ConfigurationError('FOLIO_BENCH_DATASET', `cannot read \`dataset\` file \`${file}\``, { cause: error });
    }
    const group = path.basename(file);
    text.split('\n').forEach((line, i) => {
      if (!line.trim()) return;
      const where = `${file}:${i + 1}`;
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch (error) {
        throw new ConfigurationError('FOLIO_BENCH_DATASET', `${where}: not valid JSON`, { cause: error });
      }
      const test = parseTest(json, where);
      if (seen.has(test.id)) throw new ConfigurationError('FOLIO_BENCH_DATASET', `${where}: duplicate test id \`${test.id}\``);
      seen.add(test.id);
      out.push({ test, group });
    });
  }
  return out;
}

async function listMarkdown(root: string, dir = ''): Promise<string[]> {
  const entries = await readdir(path.join(root, dir), { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const entry of entries) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await listMarkdown(root, rel)));
    else if (entry.name.endsWith('.md')) files.push(rel.split(path.sep).join('/'));
  }
  return files;
}

/**
 * The Markdown files for one PDF page: the benchmark's own naming
 * (`<pdf without .pdf>_pg<page>_repeat<n>.md`, any number of repeats) or, as `folio convert`
 * writes it, `<pdf without .pdf>.md` holding the whole document.
 */
export function markdownFilesFor(pdf: string, page: number, available: ReadonlySet<string>): string[] {
  const base = pdf.replace(/\.pdf$/i, '');
  const pattern = new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}_pg${page}_repeat\\d+\\.md$`);
  const repeats = [...available].filter((f) => pattern.test(f)).sort();
  if (repeats.length > 0) return repeats;
  return available.has(`${base}.md`) ? [`${base}.md`] : [];
}

const summarize = (outcomes: readonly TestOutcome[]): TypeSummary => ({
  total: outcomes.length,
  passed: outcomes.filter((o) => o.passed).length,
  score: outcomes.length === 0 ? 0 : outcomes.reduce((sum, o) => sum + o.score, 0) / outcomes.length,
});

function groupBy(outcomes: readonly TestOutcome[], key: (o: TestOutcome) => string): Record<string, TypeSummary> {
  const groups = new Map<string, TestOutcome[]>();
  for (const o of outcomes) groups.set(key(o), [...(groups.get(key(o)) ?? []), o]);
  return Object.fromEntries([...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, summarize(v)]));
}

export interface ScoreMarkdownOptions {
  /** `dataset.jsonl` (or a folder of `.jsonl` files). */
  readonly dataset: string;
  /** Folder of Markdown named after the PDFs (see {@link markdownFilesFor}). */
  readonly markdown: string;
  /**
   * Add one `baseline` test per PDF (some text, no runaway repetition, no CJK/emoji), as the
   * benchmark does.
   * @default true
   */
  readonly baseline?: boolean;
}

/**
 * Score a folder of Markdown against a dataset. A page without Markdown fails its tests with the
 * reason `missing Markdown`; it never throws for a bad output, only for a bad dataset.
 *
 * @example
 * const score = await scoreMarkdown({ dataset: 'dataset.jsonl', markdown: 'out/pdftotext' })
 * console.log(score.overall, score.byType.table)
 */
export async function scoreMarkdown({ dataset, markdown, baseline = true }: Readonly<ScoreMarkdownOptions>): Promise<OlmocrScore> {
  const loaded = await loadDataset({ dataset });
  if (baseline) {
    const pdfs = [...new Set(loaded.map((l) => l.test.pdf))];
    for (const pdf of pdfs) {
      if (!loaded.some((l) => l.test.pdf === pdf && l.test.type === 'baseline')) {
        loaded.push({ test: { pdf, page: 1, id: `${pdf}_baseline`, type: 'baseline' }, group: 'baseline' });
      }
    }
  }
  const available = new Set(await listMarkdown(markdown));
  const contents = new Map<string, string>();
  const read = async (file: string): Promise<string> => {
    let text = contents.get(file);
    if (text === undefined) {
      text = await readFile(path.join(markdown, file), 'utf8');
      contents.set(file, text);
    }
    return text;
  };
  // Every formula the math tests may need goes to the browser in one page, before any test runs.
  const mathCases: MathCase[] = [];
  for (const { test } of loaded) {
    if (test.type !== 'math') continue;
    for (const file of markdownFilesFor(test.pdf, test.page, available)) {
      mathCases.push({ reference: test.math ?? '', markdown: await read(file), dollars: !test.ignore_dollar_delimited });
    }
  }
  const { book, note } = await mathGlyphBook(mathCases);
  const tests: TestOutcome[] = [];
  for (const { test, group } of loaded) {
    const files = markdownFilesFor(test.pdf, test.page, available);
    const base = { id: test.id, pdf: test.pdf, page: test.page, type: test.type, group, files };
    if (files.length === 0) {
      tests.push({ ...base, score: 0, passed: false, reason: 'missing Markdown' });
      continue;
    }
    let passes = 0;
    let reason = '';
    for (const file of files) {
      const result = runCheck(test, await read(file), book);
      if (result.passed) passes++;
      else reason ||= result.reason;
    }
    const score = passes / files.length;
    // With repeats, a test passes when most repeats pass (the benchmark's rule).
    tests.push({ ...base, score, passed: score > 0.5, reason });
  }
  const byGroup = groupBy(tests, (o) => o.group);
  const groupScores = Object.values(byGroup).map((g) => g.score);
  const all = summarize(tests);
  return {
    overall: groupScores.length === 0 ? 0 : groupScores.reduce((a, b) => a + b, 0) / groupScores.length,
    testPassRate: all.score,
    total: all.total,
    passed: all.passed,
    byType: groupBy(tests, (o) => o.type),
    byGroup,
    failures: tests.filter((t) => !t.passed).map((t) => ({ id: t.id, type: t.type, pdf: t.pdf, reason: t.reason })),
    tests,
    mathCheck: note,
  };
}
