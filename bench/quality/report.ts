/** `quality.md`: per set, the engines side by side, then each engine's per-document rows. */
import { machineMarkdown } from '../common/machine.ts';
import { markdownTable } from '../common/markdown-table.ts';
import type { QualityBenchResult, SetResult } from './run.ts';

const fmt = (v: number | undefined, digits = 3): string => (v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(digits));

/** The figures beside the headline that a set reports, as one cell. */
function extras(set: SetResult, figures: Readonly<Record<string, number>>): string {
  if (set.set === 'olmocr') {
    const types = Object.keys(figures)
      .filter((k) => k.endsWith(' passed') && k !== 'withBaselinePassed')
      .map((k) => k.slice(0, -' passed'.length));
    return `${figures['passed']}/${figures['total']} tests (${types.map((t) => `${t} ${figures[`${t} passed`]}/${figures[`${t} total`]}`).join(', ')}); with baseline tests ${figures['withBaselinePassed']}/${figures['withBaselineTotal']}, per-group "overall" ${fmt((figures['overall'] ?? NaN) * 100, 1)}%${figures['math glyph test in Chromium'] === 0 ? '; math tests by MathML only (no browser for the glyph test)' : ''}`;
  }
  return Object.entries(figures)
    .map(([k, v]) => `${k} ${Number.isInteger(v) ? v : fmt(v)}`)
    .join(', ');
}

function setSection(set: SetResult): string {
  const summary = set.engines.map((e) =>
    e.notRun !== undefined
      ? [e.engine, 'not run', e.notRun, '', '']
      : [
          e.engine,
          fmt(e.score!.headline),
          extras(set, e.score!.figures),
          fmt(e.pagesPerSecond, 2),
          e.failures.length ? e.failures.join('; ').slice(0, 300) : '',
        ],
  );
  const headline = set.engines.find((e) => e.score)?.score?.headlineName ?? 'score';
  const parts = [
    `## Set \`${set.set}\``,
    '',
    `${set.description}. ${set.documents} PDFs, ${set.pages} pages.`,
    '',
    markdownTable(['engine', headline, 'details', 'pages/s', 'failures'], summary),
    '',
  ];
  for (const e of set.engines) {
    if (!e.score) continue;
    parts.push(
      `<details><summary>${set.set}: ${e.engine} per document</summary>`,
      '',
      markdownTable(
        [...set.columns],
        e.score.rows.map((r) => [...r]),
      ),
      '',
      '</details>',
      '',
    );
  }
  return parts.join('\n');
}

/** The whole report. */
export function qualityMarkdown(result: QualityBenchResult): string {
  return [
    '# Quality on the dev sets (`npx folio bench quality`)',
    '',
    `One run (${result.date}), every engine on the same pages. Dev sets are small samples we develop on, not the official benchmarks; the team checks the same figures on documents held out. pages/s is wall time of one process per engine and set (start-up and model loading included) on a shared 2-core machine.`,
    '',
    markdownTable(['engine', 'version'], Object.entries(result.versions)),
    '',
    ...result.sets.map(setSection),
    machineMarkdown(result.machine),
    '',
  ].join('\n');
}
