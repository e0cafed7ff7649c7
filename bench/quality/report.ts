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

/** The factory's figures per family, engines side by side: tests passed, CER and furniture P/R. */
function familyTable(set: SetResult): string[] {
  const scored = set.engines.filter((e) => e.score);
  const families = [
    ...new Set(
      scored.flatMap((e) =>
        Object.keys(e.score!.figures)
          .filter((k) => k.endsWith(': tests'))
          .map((k) => k.slice(0, -': tests'.length)),
      ),
    ),
  ].sort();
  if (families.length === 0) return [];
  const cell = (f: Readonly<Record<string, number>>, family: string): string => {
    const furniture =
      f[`${family}: furniture precision`] === undefined
        ? ''
        : `, furniture ${fmt(f[`${family}: furniture precision`], 2)}/${fmt(f[`${family}: furniture recall`], 2)}`;
    return `${fmt(f[`${family}: tests`])} (CER ${fmt(f[`${family}: CER`])}${furniture})`;
  };
  const types = [...new Set(scored.flatMap((e) => Object.keys(e.score!.figures).filter((k) => k.endsWith(' passed') && !k.includes(':'))))];
  return [
    'Tests passed per family (body CER, furniture precision/recall where the engine labels furniture):',
    '',
    markdownTable(
      ['family', ...scored.map((e) => e.engine)],
      families.map((family) => [family, ...scored.map((e) => cell(e.score!.figures, family))]),
    ),
    '',
    'By test type, table adjacency F1 and body CER over all documents:',
    '',
    markdownTable(
      ['figure', ...scored.map((e) => e.engine)],
      [...types, 'table F1', 'CER', 'furniture precision', 'furniture recall'].map((k) => [k, ...scored.map((e) => fmt(e.score!.figures[k]))]),
    ),
    '',
  ];
}

function setSection(set: SetResult): string {
  const summary = set.engines.map((e) =>
    e.notRun !== undefined
      ? [e.engine, 'not run', e.notRun, '', '']
      : [
          e.engine,
          fmt(e.score!.headline),
          set.set.startsWith('factory') ? `${e.score!.figures.passed}/${e.score!.figures.total} tests; see the tables below` : extras(set, e.score!.figures),
          fmt(e.pagesPerSecond, 2),
          e.failures.length ? e.failures.join('; ').slice(0, 300) : '',
        ],
  );
  const headline = set.engines.find((e) => e.score)?.score?.headlineName ?? 'score';
  const parts = [
    `## Set \`${set.set}\``,
    '',
    `${set.description}. ${set.documents} PDFs, ${set.pages} pages${set.date === undefined ? '' : ` (run ${set.date})`}.`,
    '',
    markdownTable(['engine', headline, 'details', 'pages/s', 'failures'], summary),
    '',
    ...(set.set.startsWith('factory') ? familyTable(set) : []),
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
    `Each set's engines ran in one run on the same pages (the date of each set's run beside it; latest ${result.date}). Dev sets are small samples we develop on, not the official benchmarks; the team checks the same figures on documents held out. pages/s is wall time of one process per engine and set (start-up and model loading included) on a shared 2-core machine.`,
    '',
    markdownTable(['engine', 'version'], Object.entries(result.versions)),
    '',
    ...result.sets.map(setSection),
    machineMarkdown(result.machine),
    '',
  ].join('\n');
}
