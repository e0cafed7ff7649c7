/**
 * The headline figures, each with the command that reproduces it: one list feeds both REPORT.md's
 * summary and README's figures table.
 */
import { percent } from '../common/markdown-table.ts';
import type { CollectedResults } from './collect.ts';

export interface Figure {
  readonly figure: string;
  readonly value: string;
  readonly command: string;
}

const DATASET = '../shared/data/olmocr-bench-dev/dataset.jsonl';

/**
 * Speed-ups per draft length K from the decode suite's JSON: `perK: [{k, speedup}]`, or its
 * `rows` (the model draft head at batch 1, K > 0).
 */
export function decodeSpeedups(decode: unknown): { k: number; speedup: number }[] {
  const d = decode as { perK?: unknown; rows?: unknown } | undefined;
  const valid = (e: unknown): e is { k: number; speedup: number } => typeof (e as { k?: unknown })?.k === 'number' && typeof (e as { speedup?: unknown })?.speedup === 'number';
  if (Array.isArray(d?.perK)) return d.perK.filter(valid);
  if (!Array.isArray(d?.rows)) return [];
  const rows = (d.rows as unknown[]).filter(valid) as ({ k: number; speedup: number; batch?: number; draft?: string })[];
  return rows.filter((r) => (r.batch ?? 1) === 1 && (r.draft ?? 'model') === 'model' && r.k > 0).map((r) => ({ k: r.k, speedup: r.speedup }));
}

/** Pages per second per OCR engine from the ocr suite's JSON (`olmocr: [{engine, pages, ms}]`). */
export function ocrThroughput(ocr: unknown): { engine: string; pagesPerSecond: number }[] {
  const rows = (ocr as { olmocr?: unknown } | undefined)?.olmocr;
  if (!Array.isArray(rows)) return [];
  return rows
    .filter((r): r is { engine: string; pages: number; ms: number } => typeof r?.engine === 'string' && typeof r?.pages === 'number' && typeof r?.ms === 'number' && r.ms > 0)
    .map((r) => ({ engine: r.engine, pagesPerSecond: r.pages / (r.ms / 1000) }));
}

/**
 * The figures the results support, in a fixed order.
 *
 * @example
 * for (const f of headlineFigures(await collectResults())) console.log(f.figure, f.value)
 */
export function headlineFigures(results: CollectedResults): Figure[] {
  const figures: Figure[] = [];
  for (const [engine, r] of Object.entries(results.olmocr)) {
    const who = ['pdftotext', 'tesseract'].includes(engine) ? `${engine} (baseline)` : `Folio --engine ${engine}`;
    figures.push({
      figure: `olmOCR-Bench dev score, ${who}`,
      value: `${percent(r.score.overall)} (${r.score.passed}/${r.score.total} tests)`,
      command: `npx folio bench olmocr --dataset ${DATASET} --engine ${engine} --out ${results.resultsDir}/olmocr/${engine}`,
    });
  }
  for (const [engine, r] of Object.entries(results.docling)) {
    const v = r.mean;
    figures.push({
      figure: `docling-dev vs ground truth, ${engine}`,
      value: `edit distance ${v.editDistance.toFixed(3)}, heading recall ${Number.isFinite(v.headingRecall) ? v.headingRecall.toFixed(2) : 'n/a'}, TEDS ${Number.isFinite(v.teds) ? v.teds.toFixed(2) : 'n/a'}, order ${v.readingOrder.toFixed(2)}`,
      command: `npx folio bench docling --engine ${engine}`,
    });
  }
  const tl = results.textlayer;
  if (tl) {
    // One row per Folio phase with the peer beside it; pdf.js alone is a diagnostic, left to REPORT.md.
    const peer = tl.phases.find((p) => p.phase === 'pdftotext' && !p.skipped);
    for (const p of tl.phases) {
      if (p.skipped || p.phase === 'pdftotext' || p.phase === 'pdfjs') continue;
      const beside = peer ? ` vs pdftotext ${peer.pagesPerSecond} (${p.vsPdftotext}×)` : '';
      figures.push({
        figure: `Text layer, ${p.description} (${tl.pages} pages)`,
        value: `${p.pagesPerSecond} pages/s${beside}${p.peakRssMiB ? `, peak RSS ${p.peakRssMiB} MiB` : ''}`,
        command: `npx folio bench textlayer${p.phase === 'ingest-es' ? ' --es URL' : ''}`,
      });
    }
  }
  for (const { engine, pagesPerSecond } of ocrThroughput(results.suites['ocr'])) {
    figures.push({ figure: `OCR route (olmOCR dev pages), ${engine}`, value: `${pagesPerSecond.toFixed(2)} pages/s`, command: 'npx folio bench ocr' });
  }
  for (const { k, speedup } of decodeSpeedups(results.suites['decode'])) {
    figures.push({ figure: `Speculative decoding speed-up, K=${k}`, value: `${speedup.toFixed(2)}×`, command: 'npx folio bench decode' });
  }
  return figures;
}
