/** `bench/results/REPORT.md` and its SVG plots, from the collected result files. */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { machineInfo, machineMarkdown } from '../common/machine.ts';
import { markdownTable, percent } from '../common/markdown-table.ts';
import type { Bar } from '../common/svg.ts';
import { barChart } from '../common/svg.ts';
import type { CollectedResults } from './collect.ts';
import { decodeSpeedups, headlineFigures, ocrThroughput } from './figures.ts';

export interface WriteReportOptions {
  readonly results: CollectedResults;
  /** Notes to print under the summary (suites that did not run and why). */
  readonly notes?: readonly string[];
}

/**
 * Write REPORT.md and `plots/*.svg` into the results folder; returns the report's path.
 *
 * @example
 * await writeReport({ results: await collectResults() })
 */
export async function writeReport({ results, notes = [] }: Readonly<WriteReportOptions>): Promise<string> {
  const dir = results.resultsDir;
  const plots = path.join(dir, 'plots');
  await mkdir(plots, { recursive: true });
  const sections: string[] = ['# Folio benchmark report', '', machineMarkdown(machineInfo()), ''];

  sections.push(
    '## Headline figures',
    '',
    markdownTable(
      ['figure', 'value', 'reproduce'],
      headlineFigures(results).map((f) => [f.figure, f.value, `\`${f.command}\``]),
    ),
    '',
  );
  if (notes.length > 0)
    sections.push('Suites that could not run this time (earlier result files, if any, are used above):', '', ...notes.map((n) => `- ${n}`), '');

  const tl = results.textlayer;
  if (tl) {
    const bars: Bar[] = tl.phases
      .filter((p) => !p.skipped)
      .map((p) => ({ label: p.phase, value: p.pagesPerSecond, series: p.phase === 'pdftotext' ? 'baseline' : 'folio' }));
    for (const e of ocrThroughput(results.suites['ocr'])) bars.push({ label: `ocr: ${e.engine}`, value: e.pagesPerSecond, series: 'ocr' });
    await writeFile(path.join(plots, 'pages-per-second.svg'), barChart({ title: 'Pages per second by route', unit: 'pages/s (median)', bars }));
    sections.push('## Throughput per route', '', '![pages per second](plots/pages-per-second.svg)', '');
    sections.push(
      markdownTable(
        ['phase', 'pages/s', 'vs pdftotext', 'peak RSS MiB'],
        tl.phases.map((p) => [p.phase, p.skipped ? `skipped: ${p.skipped}` : p.pagesPerSecond, p.vsPdftotext ?? '', p.peakRssMiB ?? '']),
      ),
      '',
    );
  }

  const engines = Object.entries(results.olmocr);
  if (engines.length > 0) {
    const types = [...new Set(engines.flatMap(([, r]) => Object.keys(r.score.byType)))].sort();
    const bars: Bar[] = types.flatMap((type) =>
      engines.map(([engine, r]) => ({ label: `${type} · ${engine}`, value: r.score.byType[type]?.score ?? 0, series: engine })),
    );
    await writeFile(
      path.join(plots, 'olmocr-by-type.svg'),
      barChart({ title: 'olmOCR-Bench dev: score per test type', unit: 'fraction of tests passed', bars, max: 1 }),
    );
    sections.push('## olmOCR-Bench (dev set)', '', '![score per test type](plots/olmocr-by-type.svg)', '');
    sections.push(
      markdownTable(
        ['test type', ...engines.map(([e]) => e)],
        [
          ['**overall**', ...engines.map(([, r]) => percent(r.score.overall))],
          ...types.map((t) => [
            t,
            ...engines.map(([, r]) =>
              r.score.byType[t] ? `${percent(r.score.byType[t].score)} (${r.score.byType[t].passed}/${r.score.byType[t].total})` : '—',
            ),
          ]),
        ],
      ),
      '',
    );
    sections.push('Per-engine failures with reasons: `olmocr/<engine>/score.md`.', '');
  }

  const docling = Object.entries(results.docling);
  if (docling.length > 0) {
    const f = (v: number): string => (Number.isFinite(v) ? v.toFixed(3) : '—');
    sections.push(
      '## docling-dev against ground truth',
      '',
      markdownTable(
        ['engine', 'edit distance ↓', 'heading recall', 'TEDS', 'TEDS-S', 'reading order'],
        docling.map(([e, r]) => [e, f(r.mean.editDistance), f(r.mean.headingRecall), f(r.mean.teds), f(r.mean.tedsStructure), f(r.mean.readingOrder)]),
      ),
      '',
      'Per document: `docling/<engine>/docling.md`.',
      '',
    );
  }

  const speedups = decodeSpeedups(results.suites['decode']);
  if (speedups.length > 0) {
    await writeFile(
      path.join(plots, 'decode-speedup.svg'),
      barChart({
        title: 'Speculative decoding: speed-up over greedy per K',
        unit: '× greedy tokens/s',
        bars: speedups.map((s) => ({ label: `K=${s.k}`, value: s.speedup, series: 'decode' })),
      }),
    );
    sections.push('## Decoding', '', '![speed-up per K](plots/decode-speedup.svg)', '');
  }
  const others = Object.keys(results.suites);
  if (others.length > 0) sections.push('## Other suites', '', ...others.map((suite) => `- ${suite}: [\`${suite}.md\`](${suite}.md)`), '');
  const file = path.join(dir, 'REPORT.md');
  await writeFile(file, sections.join('\n'));
  return file;
}
