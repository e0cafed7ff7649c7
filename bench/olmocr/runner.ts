/**
 * `folio bench olmocr`: convert the PDFs of an olmOCR-Bench folder with an engine (Folio's CLI or a
 * baseline tool), or take an existing folder of Markdown, then score it and write `score.json` and
 * `score.md` beside the Markdown.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigurationError } from '../../core/errors.ts';
import type { MachineInfo } from '../common/machine.ts';
import { machineInfo } from '../common/machine.ts';
import { runChild } from '../common/tools.ts';
import type { BaselineEngine } from './baselines.ts';
import { BASELINE_ENGINES, convertWithBaseline } from './baselines.ts';
import { scoreToMarkdown } from './report.ts';
import type { OlmocrScore } from './score.ts';
import { loadDataset, scoreMarkdown } from './score.ts';

export interface OlmocrBenchOptions {
  /** `dataset.jsonl`, or a folder of `.jsonl` files. */
  readonly dataset: string;
  /**
   * Folder the `pdf` fields are relative to.
   * @default the `pdfs` folder beside the dataset
   */
  readonly pdfs?: string;
  /**
   * `pdftotext` or `tesseract` for a baseline, anything else is passed to `folio convert --engine`.
   * @default 'auto'
   */
  readonly engine?: string;
  /** Where the Markdown, `score.json` and `score.md` go. */
  readonly out: string;
  /** Score this folder of Markdown instead of converting (any engine's output, same naming). */
  readonly markdown?: string;
  /**
   * Add the per-PDF baseline tests (non-empty, no runaway repetition, no CJK/emoji).
   * @default true
   */
  readonly baseline?: boolean;
  /** Progress lines. @default console.error */
  readonly log?: (line: string) => void;
}

export interface OlmocrBenchResult {
  readonly engine: string;
  readonly dataset: string;
  readonly markdown: string;
  readonly pdfCount: number;
  /** Conversion time, absent when existing Markdown was scored. */
  readonly convertMs?: number;
  readonly convertFailures: readonly string[];
  readonly score: OlmocrScore;
  readonly machine: MachineInfo;
}

const CLI = fileURLToPath(new URL('../../bin/folio.ts', import.meta.url));

/** Deepest folder containing every file (the root `folio convert` names its outputs from). */
export function commonRoot(files: readonly string[]): string {
  if (files.length === 0) return '';
  const dirs = files.map((f) =>
    path
      .dirname(f)
      .split('/')
      .filter((p) => p !== '.'),
  );
  const first = dirs[0]!;
  let depth = 0;
  while (depth < first.length && dirs.every((d) => d[depth] === first[depth])) depth++;
  return first.slice(0, depth).join('/');
}

async function convertWithFolio(engine: string, files: readonly string[], pdfs: string, out: string): Promise<{ wallMs: number; failures: string[] }> {
  // `folio convert` names outputs relative to the common root of its inputs; write into the
  // matching subfolder so `<out>/<pdf>.md` holds whatever the root turns out to be.
  const target = path.join(out, commonRoot(files));
  await mkdir(target, { recursive: true });
  const args = [CLI, 'convert', ...files.map((f) => path.join(pdfs, f)), '--out-dir', target, '--engine', engine];
  const run = await runChild({ command: process.execPath, args, measureMemory: false, captureStdout: true });
  const failures = run.code === 0 ? [] : [`folio convert exited ${run.code}: ${(run.stderr || run.stdout).trim().split('\n').slice(-5).join(' | ')}`];
  return { wallMs: run.wallMs, failures };
}

/**
 * Run olmOCR-Bench on a folder: convert (unless `markdown` is given), score, write results.
 *
 * @example
 * const result = await runOlmocrBench({ dataset: '../shared/data/olmocr-bench-dev/dataset.jsonl', engine: 'pdftotext', out: 'bench/results/olmocr/pdftotext' })
 * console.log(result.score.overall)
 */
export async function runOlmocrBench(options: Readonly<OlmocrBenchOptions>): Promise<OlmocrBenchResult> {
  const { dataset, engine = 'auto', out, markdown, baseline = true, log = (line: string) => console.error(line) } = options;
  if (!dataset) throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', 'expected `dataset` (--dataset FILE) to name a dataset.jsonl');
  if (!out) throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', 'expected `out` (--out DIR) to name a folder for the results');
  const pdfs = options.pdfs ?? path.join(dataset.endsWith('.jsonl') ? path.dirname(dataset) : dataset, 'pdfs');
  const tests = await loadDataset({ dataset });
  const files = [...new Set(tests.map((t) => t.test.pdf))].sort();
  await mkdir(out, { recursive: true });

  let convertMs: number | undefined;
  let convertFailures: string[] = [];
  const markdownDir = markdown ?? out;
  if (markdown === undefined) {
    log(`olmocr: converting ${files.length} PDFs with ${engine}`);
    if ((BASELINE_ENGINES as readonly string[]).includes(engine)) {
      const result = await convertWithBaseline({ engine: engine as BaselineEngine, files, pdfs, out });
      convertMs = result.wallMs;
      convertFailures = result.failures.map((f) => `${f.file}: ${f.reason}`);
    } else {
      const result = await convertWithFolio(engine, files, pdfs, out);
      convertMs = result.wallMs;
      convertFailures = result.failures;
    }
    for (const failure of convertFailures) log(`olmocr: ${failure}`);
  }
  const score = await scoreMarkdown({ dataset, markdown: markdownDir, baseline });
  const result: OlmocrBenchResult = {
    engine: markdown === undefined ? engine : `markdown:${markdown}`,
    dataset,
    markdown: markdownDir,
    pdfCount: files.length,
    ...(convertMs === undefined ? {} : { convertMs }),
    convertFailures,
    score,
    machine: machineInfo(),
  };
  await writeFile(path.join(out, 'score.json'), `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(path.join(out, 'score.md'), scoreToMarkdown(score, { engine: result.engine, dataset, markdown: markdownDir }));
  log(`olmocr: ${result.engine}: overall ${(score.overall * 100).toFixed(1)}%, ${score.passed}/${score.total} tests passed; ${path.join(out, 'score.md')}`);
  return result;
}
