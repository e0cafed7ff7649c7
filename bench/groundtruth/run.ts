/**
 * `folio bench docling`: convert the docling PDFs that have reference Markdown (or take an existing
 * folder of Markdown) and compare each document: edit distance, heading recall, TEDS, reading order.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigurationError } from '../../core/errors.ts';
import type { MachineInfo } from '../common/machine.ts';
import { machineInfo, machineMarkdown } from '../common/machine.ts';
import { markdownTable } from '../common/markdown-table.ts';
import { round } from '../common/stats.ts';
import { runChild } from '../common/tools.ts';
import type { BaselineEngine } from '../olmocr/baselines.ts';
import { BASELINE_ENGINES, convertWithBaseline } from '../olmocr/baselines.ts';
import type { DocumentComparison } from './compare.ts';
import { compareDocument } from './compare.ts';

export interface DoclingBenchOptions {
  /**
   * Folder with `pdf/` and `groundtruth/<name>.md`.
   * @default '../shared/data/docling-dev'
   */
  readonly data?: string;
  /**
   * `pdftotext`, `tesseract`, or a `folio convert --engine` value.
   * @default 'auto'
   */
  readonly engine?: string;
  /** Where the Markdown and `docling.md`/`docling.json` go. @default 'bench/results/docling/<engine>' */
  readonly out?: string;
  /** Compare this folder of Markdown (`<name>.md`) instead of converting. */
  readonly markdown?: string;
  /** @default console.error */
  readonly log?: (line: string) => void;
}

export interface DoclingDocumentResult extends Partial<DocumentComparison> {
  readonly name: string;
  readonly missing?: boolean;
}

export interface DoclingBenchResult {
  readonly engine: string;
  readonly documents: readonly DoclingDocumentResult[];
  /** Means over the documents where each figure is defined. */
  readonly mean: {
    readonly editDistance: number;
    readonly headingRecall: number;
    readonly teds: number;
    readonly tedsStructure: number;
    readonly readingOrder: number;
  };
  readonly convertMs?: number;
  readonly machine: MachineInfo;
}

const CLI = fileURLToPath(new URL('../../bin/folio.ts', import.meta.url));

const meanOf = (values: readonly (number | undefined)[]): number => {
  const defined = values.filter((v): v is number => v !== undefined && Number.isFinite(v));
  return defined.length === 0 ? Number.NaN : round(defined.reduce((a, b) => a + b, 0) / defined.length, 4);
};

/**
 * Run the comparison and write `docling.md` and `docling.json` under `out`.
 *
 * @example
 * const result = await runDoclingBench({ engine: 'pdftotext' })
 * console.log(result.mean)
 */
export async function runDoclingBench(options: Readonly<DoclingBenchOptions> = {}): Promise<DoclingBenchResult> {
  const { data = '../shared/data/docling-dev', engine = 'auto', markdown, log = (line: string) => console.error(line) } = options;
  const out = options.out ?? path.join('bench/results/docling', markdown ? 'markdown' : engine);
  let names: string[];
  try {
    names = (await readdir(path.join(data, 'groundtruth')))
      .filter((f) => f.endsWith('.md'))
      .map((f) => f.slice(0, -3))
      .sort();
  } catch (error) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`data\` to hold groundtruth/*.md, got \`${data}\``, { cause: error });
  }
  const pdfs = names.map((n) => `${n}.pdf`);
  await mkdir(out, { recursive: true });
  let convertMs: number | undefined;
  const markdownDir = markdown ?? out;
  if (!markdown) {
    log(`docling: converting ${pdfs.length} PDFs with ${engine}`);
    if ((BASELINE_ENGINES as readonly string[]).includes(engine)) {
      convertMs = (await convertWithBaseline({ engine: engine as BaselineEngine, files: pdfs, pdfs: path.join(data, 'pdf'), out })).wallMs;
    } else {
      const run = await runChild({
        command: process.execPath,
        args: [CLI, 'convert', ...pdfs.map((p) => path.join(data, 'pdf', p)), '--out-dir', out, '--engine', engine, '--quiet'],
      });
      if (run.code !== 0) log(`docling: folio convert exited ${run.code}: ${run.stderr.trim().split('\n').slice(-3).join(' | ')}`);
      convertMs = run.wallMs;
    }
  }
  const documents: DoclingDocumentResult[] = [];
  for (const name of names) {
    const reference = await readFile(path.join(data, 'groundtruth', `${name}.md`), 'utf8');
    const candidate = await readFile(path.join(markdownDir, `${name}.md`), 'utf8').catch(() => undefined);
    if (candidate === undefined) {
      documents.push({ name, missing: true });
      continue;
    }
    documents.push({ name, ...compareDocument({ reference, candidate }) });
  }
  const result: DoclingBenchResult = {
    engine: markdown ? `markdown:${markdown}` : engine,
    documents,
    mean: {
      editDistance: meanOf(documents.map((d) => (d.missing ? 1 : d.editDistance))),
      headingRecall: meanOf(documents.map((d) => (d.missing ? 0 : d.headingRecall))),
      teds: meanOf(documents.map((d) => (d.missing ? undefined : d.teds))),
      tedsStructure: meanOf(documents.map((d) => (d.missing ? undefined : d.tedsStructure))),
      readingOrder: meanOf(documents.map((d) => (d.missing ? 0 : d.readingOrder))),
    },
    ...(convertMs === undefined ? {} : { convertMs: round(convertMs, 1) }),
    machine: machineInfo(),
  };
  await writeFile(path.join(out, 'docling.json'), `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(path.join(out, 'docling.md'), doclingMarkdown(result, data));
  log(
    `docling: ${result.engine}: edit distance ${result.mean.editDistance}, heading recall ${result.mean.headingRecall}, TEDS ${result.mean.teds}, order ${result.mean.readingOrder}`,
  );
  return result;
}

const fmt = (v: number | undefined): string => (v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(3));

/** Per-document table plus means. */
export function doclingMarkdown(result: DoclingBenchResult, data: string): string {
  const rows = result.documents.map((d) =>
    d.missing
      ? [d.name, 'missing', '', '', '', '', '']
      : [
          d.name,
          fmt(d.editDistance),
          `${fmt(d.headingRecall)} (${d.headings?.matched}/${d.headings?.reference})`,
          fmt(d.teds),
          fmt(d.tedsStructure),
          `${d.tables?.candidate}/${d.tables?.reference}`,
          `${fmt(d.readingOrder)} (${d.blocksFound?.found}/${d.blocksFound?.of})`,
        ],
  );
  rows.push([
    '**mean**',
    fmt(result.mean.editDistance),
    fmt(result.mean.headingRecall),
    fmt(result.mean.teds),
    fmt(result.mean.tedsStructure),
    '',
    fmt(result.mean.readingOrder),
  ]);
  return [
    `# Ground-truth comparison: ${result.engine}`,
    '',
    `Reference Markdown from \`${data}/groundtruth\`. Edit distance: lower is better; the rest: higher is better.`,
    'Heading recall: reference headings found among the candidate headings (fuzzy ratio ≥ 0.8). TEDS: tree-edit-distance similarity of each reference table with the most similar unused candidate table (0 when none is left); TEDS-S ignores cell text. Reading order: fraction of pairs of reference blocks (≥ 40 characters, located by their first 40 characters within 4 edits) in the same order.',
    '',
    markdownTable(['document', 'edit distance', 'heading recall', 'TEDS', 'TEDS-S', 'tables (cand/ref)', 'reading order (found/of)'], rows),
    '',
    result.convertMs === undefined ? '' : `Conversion took ${(result.convertMs / 1000).toFixed(1)} s.`,
    '',
    machineMarkdown(result.machine),
    '',
  ].join('\n');
}
