/** The Markdown report of `folio bench ocr`. */
import { machineInfo, machineMarkdown, markdownTable, percent } from '../common/index.ts';

export interface CerRow {
  readonly file: string;
  readonly page: number;
  readonly width: number;
  readonly height: number;
  readonly paddleMs: number;
  readonly paddleCpuMs: number;
  readonly paddleCer?: number;
  readonly paddleChars: number;
  readonly rotation: number;
  readonly tesseractMs?: number;
  readonly tesseractCpuMs?: number;
  readonly tesseractCer?: number;
  readonly tesseractChars?: number;
  /** 1 − CER between the two engines, where there is no reference. */
  readonly agreement?: number;
  /** Paddle's milliseconds per stage (`detRunMs`, `recRunMs`, …) and recogniser columns. */
  readonly paddleStages?: Readonly<Record<string, number>>;
}

export interface OlmocrRow {
  readonly engine: string;
  readonly overall: number;
  readonly passed: number;
  readonly total: number;
  readonly byType: Readonly<Record<string, number>>;
  readonly ms: number;
  /** CPU milliseconds (user + system); for `auto` it includes the text layer and the rest of the pipeline. */
  readonly cpuMs: number;
  readonly pages: number;
  /** Paddle only: milliseconds per stage summed over the pages, and recogniser columns. */
  readonly stages?: Readonly<Record<string, number>>;
}

export interface GnarlyRow {
  readonly file: string;
  readonly ok: boolean;
  readonly pages: number;
  readonly ocrPages: number;
  readonly failedPages: number;
  readonly failures: readonly string[];
  readonly ms: number;
  readonly rssMiB: number;
}

export interface OcrBenchResult {
  readonly cer: readonly CerRow[];
  readonly olmocr: readonly OlmocrRow[];
  readonly gnarly: readonly GnarlyRow[];
  readonly tesseract: boolean;
  readonly peakRssMiB: number;
  readonly wallS: number;
}

const f3 = (v: number | undefined): string => (v === undefined ? '–' : v.toFixed(3));
const s1 = (ms: number | undefined): string => (ms === undefined ? '–' : (ms / 1000).toFixed(2));

export function ocrReport(result: OcrBenchResult): string {
  const { cer, olmocr, gnarly } = result;
  const lines: string[] = ['# OCR benchmark: embedded `paddle` engine vs Tesseract', '', machineMarkdown(machineInfo()), ''];
  lines.push('## Character error rate and speed (same page images for both engines)', '');
  lines.push(
    markdownTable(
      ['file', 'page', 'px', 'paddle CER', 'tesseract CER', 'paddle s (CPU s)', 'tesseract s (CPU s)', 'rotation found', 'agreement (no reference)'],
      cer.map((r) => [
        r.file,
        r.page,
        `${r.width}×${r.height}`,
        f3(r.paddleCer),
        f3(r.tesseractCer),
        `${s1(r.paddleMs)} (${s1(r.paddleCpuMs)})`,
        `${s1(r.tesseractMs)} (${s1(r.tesseractCpuMs)})`,
        `${r.rotation}°`,
        f3(r.agreement),
      ]),
    ),
  );
  const refRows = cer.filter((r) => r.paddleCer !== undefined);
  const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  const paddleMs = cer.reduce((s, r) => s + r.paddleMs, 0) + olmocr.filter((r) => r.engine === 'paddle').reduce((s, r) => s + r.ms, 0);
  const tessMs = cer.reduce((s, r) => s + (r.tesseractMs ?? 0), 0) + olmocr.filter((r) => r.engine === 'tesseract').reduce((s, r) => s + r.ms, 0);
  const pages = cer.length + (olmocr[0]?.pages ?? 0);
  const paddleCpu = cer.reduce((s, r) => s + r.paddleCpuMs, 0) + olmocr.filter((r) => r.engine === 'paddle').reduce((s, r) => s + r.cpuMs, 0);
  const tessCpu =
    cer.reduce((s, r) => s + (r.tesseractCpuMs ?? Number.NaN), 0) + olmocr.filter((r) => r.engine === 'tesseract').reduce((s, r) => s + r.cpuMs, 0);
  lines.push(
    '',
    `Mean CER on the ocr_test scans (0°, 90°, 180°, 270°): paddle ${f3(mean(refRows.map((r) => r.paddleCer!)))}${result.tesseract ? `, tesseract ${f3(mean(refRows.map((r) => r.tesseractCer ?? 1)))}` : ''}.`,
  );
  lines.push(
    '',
    `Throughput over all ${pages} benchmark pages (OCR only, rendering excluded): paddle ${(pages / (paddleMs / 1000)).toFixed(3)} pages per wall second, ${(pages / (paddleCpu / 1000)).toFixed(3)} per CPU second${result.tesseract ? `; tesseract ${(pages / (tessMs / 1000)).toFixed(3)} per wall second, ${(pages / (tessCpu / 1000)).toFixed(3)} per CPU second (paddle speed relative to tesseract: ${(tessMs / paddleMs).toFixed(2)}× wall, ${(tessCpu / paddleCpu).toFixed(2)}× CPU)` : ''}.`,
  );
  lines.push(...stageTable(cer, olmocr));
  if (olmocr.length > 0) {
    lines.push('', '## olmOCR-Bench dev', '');
    const types = [...new Set(olmocr.flatMap((r) => Object.keys(r.byType)))].sort();
    lines.push(
      markdownTable(
        ['engine', 'overall', 'tests passed', ...types],
        olmocr.map((r) => [
          r.engine,
          percent(r.overall),
          `${r.passed}/${r.total}`,
          ...types.map((t) => (r.byType[t] === undefined ? '–' : percent(r.byType[t]!))),
        ]),
      ),
    );
  }
  if (gnarly.length > 0) {
    lines.push('', '## Robustness: the gnarly PDFs in one run (`auto`, paddle for OCR)', '');
    lines.push(
      markdownTable(
        ['file', 'ok', 'pages', 'OCR pages', 'failed pages', 'seconds', 'peak RSS MiB so far', 'first failures'],
        gnarly.map((r) => [
          r.file,
          r.ok ? 'yes' : 'no',
          r.pages,
          r.ocrPages,
          r.failedPages,
          s1(r.ms),
          r.rssMiB,
          r.failures.join('; ').replace(/\|/g, '\\|').slice(0, 160),
        ]),
      ),
    );
    lines.push('', `${gnarly.length} files accounted for, ${gnarly.filter((r) => r.ok).length} read; peak RSS of the whole run ${result.peakRssMiB} MiB.`);
  }
  lines.push('', `Wall time of the benchmark: ${result.wallS.toFixed(0)} s.`, '');
  return lines.join('\n');
}

/** Stages in pipeline order, then any others the engine reported. */
const STAGE_ORDER = ['prepMs', 'detPreMs', 'detRunMs', 'dbMs', 'rotateMs', 'clsMs', 'splitMs', 'tightenMs', 'cropMs', 'recRunMs', 'decodeMs', 'layoutMs'];

/** Where paddle's time goes: milliseconds per stage for each CER page and the olmOCR pages together. */
function stageTable(cer: readonly CerRow[], olmocr: readonly OlmocrRow[]): string[] {
  const rows: [string, Readonly<Record<string, number>>][] = cer
    .filter((r) => r.paddleStages !== undefined)
    .map((r) => [`${r.file} p${r.page}`, r.paddleStages!]);
  const olm = olmocr.find((r) => r.engine === 'paddle' && r.stages !== undefined);
  if (olm !== undefined) rows.push([`olmOCR dev, ${olm.pages} pages together`, olm.stages!]);
  if (rows.length === 0) return [];
  const seen = new Set(rows.flatMap(([, s]) => Object.keys(s)));
  const stages = [...STAGE_ORDER.filter((k) => seen.has(k)), ...[...seen].filter((k) => k.endsWith('Ms') && !STAGE_ORDER.includes(k)).sort()];
  return [
    '',
    "## Where paddle's time goes (milliseconds per stage, wall clock; rendering excluded)",
    '',
    'Recognition runs in parallel lanes (one per core), so `recRun` sums the lanes and a row can add up to more than the page took.',
    '',
    markdownTable(
      ['page', ...stages.map((k) => k.replace(/Ms$/, '')), 'rec columns'],
      rows.map(([name, s]) => [name, ...stages.map((k) => (s[k] ?? 0).toFixed(0)), String(s.recColumns ?? '–')]),
    ),
  ];
}
