/** The scan benchmark's Markdown section: per set, Folio beside Tesseract, then every page. */
import { markdownTable } from '../common/index.ts';
import type { ScanEngine, ScanQualityResult, ScanSetResult } from './run.ts';

const ENGINES: readonly ScanEngine[] = ['auto', 'paddle', 'tesseract'];
const f3 = (v: number | undefined): string => (v === undefined || !Number.isFinite(v) ? '-' : v.toFixed(3));
const f2 = (v: number | undefined): string => (v === undefined || !Number.isFinite(v) ? '-' : v.toFixed(2));

/**
 * The report section (`## Degraded scans …`), for `bench/results/scans.md` or a larger report.
 *
 * @example
 * await writeFile('bench/results/scans.md', scansReport(result));
 */
export function scansReport(result: Readonly<ScanQualityResult>, command = 'npx folio bench scans'): string {
  const sets: ScanSetResult[] = [...(result.devScans ? [result.devScans] : []), ...result.sets];
  const engines = ENGINES.filter((e) => sets.some((s) => s.engines[e] !== undefined));
  const ratio = (s: ScanSetResult): string => {
    const folio = s.engines.auto ?? s.engines.paddle;
    const tess = s.engines.tesseract;
    return folio && tess && tess.meanCer > 0 ? (folio.meanCer / tess.meanCer).toFixed(2) : '-';
  };
  const summary = markdownTable(
    [
      'set',
      'pages',
      'documents',
      ...engines.flatMap((e) => [`${e} mean CER`, `${e} median CER`, `${e} word recall`, `${e} pages/s`, `${e} CPU s/page`]),
      'Folio / Tesseract mean CER',
    ],
    sets.map((s) => [
      s.set,
      s.pages,
      s.documents,
      ...engines.flatMap((e) => [
        f3(s.engines[e]?.meanCer),
        f3(s.engines[e]?.medianCer),
        f2(s.engines[e]?.wordRecall),
        f2(s.engines[e]?.pagesPerSecond),
        f2(s.engines[e]?.cpuSecondsPerPage),
      ]),
      ratio(s),
    ]),
  );
  const pages = markdownTable(
    ['set', 'page', 'skew °', 'turn', 'Folio rotation', ...engines.flatMap((e) => [`${e} CER`, `${e} recall`]), 'formulas read', 'errors'],
    result.rows.map((r) => [
      r.set,
      r.name,
      r.skewDeg === undefined ? '-' : r.skewDeg.toFixed(2),
      r.turn ?? 0,
      r.folioRotation ?? '-',
      ...engines.flatMap((e) => [f3(r.scores[e]?.cer), f2(r.scores[e]?.wordRecall)]),
      r.formulasRead ?? '-',
      Object.entries(r.errors ?? {})
        .map(([e, m]) => `${e}: ${m}`)
        .join('; '),
    ]),
  );
  return [
    '## Degraded scans: Folio beside Tesseract',
    '',
    `Reproduce: \`${command}\` (dev set seed \`${result.seed}\`, built under \`.cache/scans\` from \`../shared/data\`; \`--rebuild\` rebuilds it). ` +
      "Born-digital pages whose text layer is good, rendered at 200 dpi grey, skewed within ±2°, blurred (σ 0.5–0.7 px), noised (σ 10–20), a quarter turned 90/180/270°, saved as JPEG (quality 65–75) in image-only PDFs; the truth is the page's text layer (`pdftotext`). " +
      '`docling-ocr` is `../shared/data/docling-dev/ocr/ocr_test*.pdf` against `ocr_test.expected.md`. ' +
      'Folio `auto` reads the image-only PDF end to end; Tesseract 5 (`--psm 1`, `OMP_THREAD_LIMIT=1`) reads the same rendered page image in the same run. ' +
      "CER is over plain text (Markdown and grounding tags removed, whitespace collapsed); word recall is the share of the truth's words found anywhere in the output (order ignored), so a high CER with high recall is reading order, with low recall missing text. " +
      `Wall ${result.wallS.toFixed(0)} s.`,
    '',
    summary,
    '',
    '### Per page',
    '',
    pages,
    '',
  ].join('\n');
}
