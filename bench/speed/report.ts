/** `speed.md`: one table per set, then the issue's targets read off the same run. */
import { machineMarkdown } from '../common/machine.ts';
import { markdownTable } from '../common/markdown-table.ts';
import { round } from '../common/stats.ts';
import type { SpeedBenchResult, SpeedRow } from './run.ts';

const times = (a: number | undefined, b: number | undefined): string =>
  a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0 ? '' : `${round(a / b, 2)}×`;

/**
 * @example
 * await writeFile('bench/results/speed.md', speedMarkdown(result))
 */
export function speedMarkdown(result: SpeedBenchResult): string {
  const bySet = new Map<string, SpeedRow[]>();
  for (const row of result.rows) bySet.set(row.set, [...(bySet.get(row.set) ?? []), row]);
  const find = (set: string, suffix: string): SpeedRow | undefined => bySet.get(set)?.find((r) => r.phase === `${set}/${suffix}` && !r.skipped);
  const tables: string[] = [];
  for (const [set, rows] of bySet) {
    const pdftotext = find(set, 'pdftotext');
    const text = find(set, 'folio-text');
    const tesseract = find(set, 'tesseract');
    tables.push(
      `### ${set}`,
      '',
      markdownTable(
        [
          'phase',
          'pages',
          'pages/s',
          'vs pdftotext',
          'vs folio-text',
          'vs tesseract',
          'CPU s',
          'pages per CPU s',
          'peak RSS MiB',
          'chunks/s',
          'quality (first run)',
        ],
        rows.map((r) =>
          r.skipped
            ? [r.phase.slice(set.length + 1), '', 'skipped', '', '', '', '', '', '', '', r.skipped]
            : [
                r.phase.slice(set.length + 1),
                r.pages,
                r.pagesPerSecond,
                times(r.pagesPerSecond, pdftotext?.pagesPerSecond),
                times(r.pagesPerSecond, text?.pagesPerSecond),
                times(r.pagesPerSecond, tesseract?.pagesPerSecond),
                r.cpuSeconds ?? '',
                r.pagesPerCpuSecond ?? '',
                r.peakRssMiB ?? '',
                r.chunksPerSecond ?? '',
                r.quality === undefined ? '' : `${r.quality} ${r.qualityName ?? ''}`.trim(),
              ],
        ),
      ),
      '',
    );
  }
  const { loadAverage, cores } = result.machine;
  return [
    '# Speed: every route side by side',
    '',
    `\`npx folio bench speed\`: each phase a whole process timed from spawn to exit as a user runs it (start-up, model loading and worker threads count), ${result.runs} run(s) per phase interleaved across phases; medians of wall time, CPU seconds (all threads; for pdftotext and Tesseract the sum over their processes, Tesseract's including pdftoppm's 300 dpi rendering) and peak RSS (the largest process). Quality is the set's headline figure of the phase's first-run output, scored as \`folio bench quality\` scores it. Ingest phases read the corpus set's PDFs (\`auto\` unless named \`-text\`; \`-embed\` = the default local embeddings); \`long-N\` is the corpus joined by pdfunite into one PDF of at least N pages, read by \`folio convert --engine text\`.`,
    '',
    ...(loadAverage !== undefined && loadAverage > cores
      ? [
          `**Load average ${loadAverage} on ${cores} cores when measured:** wall figures are low; ratios within one set and CPU seconds are the comparable part.`,
          '',
        ]
      : []),
    ...tables,
    '## Targets (issue #31), from this run',
    '',
    ...targets(result, find),
    '',
    machineMarkdown(result.machine),
    '',
    `Versions: ${Object.entries(result.versions)
      .map(([k, v]) => `${k}: ${v}`)
      .join('; ')}.`,
    '',
  ].join('\n');
}

function targets(result: SpeedBenchResult, find: (set: string, suffix: string) => SpeedRow | undefined): string[] {
  const lines: string[] = [];
  const met = (ok: boolean): string => (ok ? 'met' : 'not met');
  const sets = [...new Set(result.rows.map((r) => r.set))];
  for (const set of sets) {
    const auto = find(set, 'folio-auto');
    const text = find(set, 'folio-text');
    const pdftotext = find(set, 'pdftotext');
    if (auto && text) {
      const ratio = auto.pagesPerSecond / text.pagesPerSecond;
      lines.push(
        `- \`auto\` ≥ 0.5× \`--engine text\` on ${set}: ${round(ratio, 2)}× (${auto.pagesPerSecond} vs ${text.pagesPerSecond} pages/s; quality ${auto.quality ?? '?'} vs ${text.quality ?? '?'}) — ${met(ratio >= 0.5)}.`,
      );
    }
    if (text && pdftotext)
      lines.push(
        `- \`--engine text\` vs pdftotext on ${set}, whole processes: ${round(text.pagesPerSecond / pdftotext.pagesPerSecond, 2)}× (the 0.7× target is on \`folio bench textlayer\`'s \`pages\` phase, start-up excluded).`,
      );
    const tesseract = find(set, 'tesseract');
    if (auto && tesseract && auto.pagesPerCpuSecond !== undefined && tesseract.pagesPerCpuSecond !== undefined) {
      const perCore = auto.pagesPerCpuSecond / tesseract.pagesPerCpuSecond;
      lines.push(
        `- OCR per core on ${set}: Folio ${auto.pagesPerCpuSecond} vs Tesseract ${tesseract.pagesPerCpuSecond} pages per CPU second = ${round(perCore, 2)}× — ${met(perCore >= 1)}; wall ${round(auto.pagesPerSecond / tesseract.pagesPerSecond, 2)}× (quality ${auto.quality ?? '?'} vs ${tesseract.quality ?? '?'}).`,
      );
    }
    const embed = find(set, 'ingest-ndjson-embed');
    const none = find(set, 'ingest-ndjson');
    if (embed?.chunksPerSecond !== undefined && none) {
      const chunks = embed.chunksPerSecond * (embed.medianWallMs / 1000);
      const embedOnly = chunks / Math.max(0.001, (embed.medianWallMs - none.medianWallMs) / 1000);
      lines.push(
        `- Embeddings ≥ 150 chunks/s: ingest with embeddings ${embed.chunksPerSecond} chunks/s end to end (${embed.pagesPerSecond} pages/s vs ${none.pagesPerSecond} without); the embedding step alone (chunks over the extra wall time) ${round(embedOnly, 0)} chunks/s — ${met(embedOnly >= 150)}.`,
      );
    }
    const short = result.rows.find((r) => r.set === set && /\/long-100$/.test(r.phase) && !r.skipped);
    const long = result.rows.find((r) => r.set === set && /\/long-\d+$/.test(r.phase) && !/\/long-100$/.test(r.phase) && !r.skipped);
    if (short?.peakRssMiB !== undefined && long?.peakRssMiB !== undefined) {
      const growth = long.peakRssMiB / short.peakRssMiB;
      lines.push(
        `- Memory flat in length: ${long.pages} pages peak ${long.peakRssMiB} MiB vs ${short.pages} pages ${short.peakRssMiB} MiB = ${round(growth, 2)}× — ${met(growth <= 1.3)} (target ≤ 1.3×); ${long.pagesPerSecond} vs ${short.pagesPerSecond} pages/s.`,
      );
    }
  }
  return lines.length > 0 ? lines : ['- nothing measured'];
}
