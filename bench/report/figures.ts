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
  const valid = (e: unknown): e is { k: number; speedup: number } =>
    typeof (e as { k?: unknown })?.k === 'number' && typeof (e as { speedup?: unknown })?.speedup === 'number';
  if (Array.isArray(d?.perK)) return d.perK.filter(valid);
  if (!Array.isArray(d?.rows)) return [];
  const rows = (d.rows as unknown[]).filter(valid) as { k: number; speedup: number; batch?: number; draft?: string }[];
  return rows.filter((r) => (r.batch ?? 1) === 1 && (r.draft ?? 'model') === 'model' && r.k > 0).map((r) => ({ k: r.k, speedup: r.speedup }));
}

/** Pages per second per OCR engine from the ocr suite's JSON (`olmocr: [{engine, pages, ms}]`). */
export function ocrThroughput(ocr: unknown): { engine: string; pagesPerSecond: number }[] {
  const rows = (ocr as { olmocr?: unknown } | undefined)?.olmocr;
  if (!Array.isArray(rows)) return [];
  return rows
    .filter(
      (r): r is { engine: string; pages: number; ms: number } =>
        typeof r?.engine === 'string' && typeof r?.pages === 'number' && typeof r?.ms === 'number' && r.ms > 0,
    )
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
    // The benchmark's baseline tests pass for any non-empty output: the headline leaves them out.
    const own = r.score.tests.filter((t) => t.type !== 'baseline');
    const passed = own.filter((t) => t.passed).length;
    figures.push({
      figure: `olmOCR-Bench dev sample (${r.pdfCount} pages, not the official benchmark), ${who}`,
      value: `${passed}/${own.length} tests passed without baseline tests (${percent(own.length ? passed / own.length : 0)}); "overall" ${percent(r.score.overall)} (${r.score.passed}/${r.score.total} with them)`,
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
        figure: `Text layer, ${p.description} (${p.pages ?? tl.pages} pages)`,
        value: `${p.pagesPerSecond} pages/s${beside}${p.peakRssMiB ? `, peak RSS ${p.peakRssMiB} MiB` : ''}`,
        command: `npx folio bench textlayer${p.phase.startsWith('ingest-es') ? ' --es URL' : ''}`,
      });
    }
  }
  for (const { engine, pagesPerSecond } of ocrThroughput(results.suites['ocr'])) {
    figures.push({ figure: `OCR route (olmOCR dev pages), ${engine}`, value: `${pagesPerSecond.toFixed(2)} pages/s`, command: 'npx folio bench ocr' });
  }
  const decode = results.suites['decode'] as { model?: string | { name?: string } } | undefined;
  // The recorded run names its model ("folio-ocr-mini 0.1.0"); the command must load the same one.
  const modelName = typeof decode?.model === 'string' ? decode.model.split(' ')[0] : decode?.model?.name;
  const decodeCommand =
    modelName && modelName !== 'folio-ocr-tiny-random' ? `npx folio bench decode --model inference/models/${modelName} --batch 1,8` : 'npx folio bench decode';
  for (const { k, speedup } of decodeSpeedups(decode)) {
    figures.push({ figure: `Speculative decoding speed-up on this CPU, K=${k} (batch 1)`, value: `${speedup.toFixed(2)}×`, command: decodeCommand });
  }
  figures.push(...suiteFigures(results.suites, decodeCommand));
  figures.push(...qualityFigures(results.suites['quality']));
  figures.push(...furnitureFigures(results.suites['furniture']));
  figures.push(...sourcesFigures(results.suites['sources']));
  figures.push(...formatsFigures(results.suites['formats']));
  figures.push(...speedFigures(results.suites['speed']));
  return figures;
}

/** `speed.json` (`folio bench speed`): per set, auto and the text route beside pdftotext, Tesseract, memory over length. */
export function speedFigures(speed: unknown): Figure[] {
  const rows = ((speed as Json)?.['rows'] as Record<string, unknown>[] | undefined) ?? [];
  const live = rows.filter((r) => r['skipped'] === undefined);
  const get = (phase: string): Json | undefined => live.find((r) => r['phase'] === phase);
  const sets = [...new Set(live.map((r) => String(r['set'])))];
  const figures: Figure[] = [];
  const runs = num((speed as Json)?.['runs']) ?? 1;
  for (const set of sets) {
    const at = (engine: string): string => {
      const r = get(`${set}/${engine}`);
      if (r === undefined) return '';
      const quality = num(r['quality']);
      return `${engine} ${num(r['pagesPerSecond'])} pages/s, ${num(r['peakRssMiB'])} MiB${quality === undefined ? '' : `, quality ${quality}`}`;
    };
    const parts = ['pdftotext', 'folio-text', 'folio-auto', 'pymupdf4llm', 'tesseract'].map(at).filter((p) => p !== '');
    if (parts.length < 2) continue;
    figures.push({
      figure: `Speed on ${set}, whole processes side by side (medians of ${runs})`,
      value: parts.join('; '),
      command: `npx folio bench speed --sets ${set}`,
    });
  }
  const long = live.filter((r) => /\/long-\d+$/.test(String(r['phase'])));
  if (long.length === 2) {
    const [short, big] = [...long].sort((a, b) => (num(a['pages']) ?? 0) - (num(b['pages']) ?? 0));
    figures.push({
      figure: `Peak RSS over a document's length (\`convert --engine text\`, ${String(short!['set'])} joined)`,
      value: `${num(big!['pages'])} pages ${num(big!['peakRssMiB'])} MiB vs ${num(short!['pages'])} pages ${num(short!['peakRssMiB'])} MiB`,
      command: 'npx folio bench speed',
    });
  }
  const embed = live.find((r) => num(r['chunksPerSecond']) !== undefined && /ingest-ndjson-embed$/.test(String(r['phase'])));
  if (embed !== undefined)
    figures.push({
      figure: `\`folio ingest\` with the default embeddings into NDJSON (${String(embed['set'])})`,
      value: `${num(embed['pagesPerSecond'])} pages/s, ${num(embed['chunksPerSecond'])} chunks/s, ${num(embed['peakRssMiB'])} MiB`,
      command: 'npx folio bench speed',
    });
  return figures;
}

/** `formats.json` (`folio bench formats`): office, web and mail files against docling's Markdown. */
export function formatsFigures(formats: unknown): Figure[] {
  const f = formats as Json;
  const mean = f?.['mean'] as Json;
  const folio = num(mean?.['folio']);
  if (folio === undefined) return [];
  const others = ['markitdown', 'pandoc'].flatMap((tool) => (num(mean?.[tool]) === undefined ? [] : [`${tool} ${num(mean?.[tool])!.toFixed(3)}`]));
  const rows = (f?.['formats'] as { format: string; similarity: Record<string, number> }[] | undefined) ?? [];
  const perFormat = rows.map((row) => `${row.format} ${(row.similarity['folio'] ?? 0).toFixed(3)}`).join(', ');
  return [
    {
      figure: `Office, web and text files (formats-dev, ${(f?.['files'] as unknown[] | undefined)?.length ?? '?'} files) vs docling's Markdown, similarity (1 − normalised edit distance)`,
      value: `Folio ${folio.toFixed(3)}${others.length > 0 ? ` (${others.join(', ')})` : ''}; ${perFormat}; ${(num(f?.['folioPagesPerSecond']) ?? 0).toFixed(1)} pages/s`,
      command: 'npx folio bench formats',
    },
  ];
}

/** `furniture.json` (`folio bench furniture`): running heads, footers and page numbers on generated scans. */
export function furnitureFigures(furniture: unknown): Figure[] {
  const f = furniture as Json;
  const precision = num(f?.['precision']);
  const recall = num(f?.['recall']);
  if (precision === undefined || recall === undefined) return [];
  return [
    {
      figure: `Page furniture on OCR pages, generated degraded scans (${num(f?.['documents'])} documents, ${num(f?.['pages'])} pages, seed \`${String(f?.['seed'])}\`), auto`,
      value: `precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)} (character trigrams), body CER ${(num(f?.['bodyCer']) ?? Number.NaN).toFixed(3)}`,
      command: `npx folio bench furniture --documents ${num(f?.['documents'])}`,
    },
  ];
}

/** `sources.json` (`folio bench sources`): ingest from a local S3 server beside disk, and an unchanged bucket's re-sync. */
export function sourcesFigures(sources: unknown): Figure[] {
  const s = sources as { summary?: { disk?: Json; s3?: Json }; resync?: unknown } | undefined;
  const disk = s?.summary?.disk;
  const s3 = s?.summary?.s3;
  const rows: Figure[] = [];
  const diskPages = num(disk?.['pagesPerS']);
  const s3Pages = num(s3?.['pagesPerS']);
  if (diskPages !== undefined && s3Pages !== undefined) {
    rows.push({
      figure: `\`folio ingest --engine text\` of ${num(s3?.['documents'])} text-layer PDFs (${num(s3?.['pages'])} pages) from a local S3 server (s3proxy) beside the same files on disk`,
      value: `S3 ${s3Pages.toFixed(1)} pages/s (${(num(s3?.['objectsPerS']) ?? Number.NaN).toFixed(1)} objects/s), disk ${diskPages.toFixed(1)} pages/s`,
      command: 'npx folio bench sources',
    });
  }
  const resync = Array.isArray(s?.resync) ? (s.resync as Json[]).find((run) => run?.['phase'] === 'resync') : undefined;
  const documents = num(resync?.['documents']);
  const downloads = num(resync?.['downloads']);
  const runS = num(resync?.['runS']);
  if (documents !== undefined && downloads !== undefined && runS !== undefined) {
    rows.push({
      figure: `Re-sync of an unchanged bucket of ${documents} objects (local s3proxy)`,
      value: `${downloads} downloads, ${runS.toFixed(1)} s`,
      command: `npx folio bench sources --keys ${documents}`,
    });
  }
  return rows;
}

const SET_NAMES: Readonly<Record<string, string>> = {
  icdar: 'ICDAR-2013 table dev set',
  docling: 'docling-dev ground truth',
  olmocr: 'olmOCR-Bench dev sample (not the official benchmark)',
  rtl: 'our right-to-left pages',
  tables: 'our synthetic table pages (Chromium-printed)',
  formulas: 'our pdflatex formula pages',
  factory: 'the document factory, born-digital',
  'factory-scans': 'the document factory, scanned',
};

/** The factory's figures beside its headline: table F1, CER and (Folio) furniture P/R. */
function factoryDetail(figs: Readonly<Record<string, number>>): string {
  const parts = [`table F1 ${(figs['table F1'] ?? Number.NaN).toFixed(3)}`, `CER ${(figs.CER ?? Number.NaN).toFixed(3)}`];
  if (figs['furniture precision'] !== undefined)
    parts.push(`furniture P/R ${figs['furniture precision'].toFixed(3)}/${(figs['furniture recall'] ?? Number.NaN).toFixed(3)}`);
  return ` (${parts.join(', ')})`;
}

/**
 * One row per set of `quality.json` (`folio bench quality`): Folio and every baseline on the
 * same pages, with pages/s; a baseline that could not run says so.
 */
export function qualityFigures(quality: unknown): Figure[] {
  const sets = (quality as { sets?: unknown } | undefined)?.sets;
  if (!Array.isArray(sets)) return [];
  const figures: Figure[] = [];
  for (const set of sets as Json[]) {
    const name = String(set?.['set']);
    const engines = (set?.['engines'] as Json[] | undefined) ?? [];
    const headline = String((engines.find((e) => e?.['score'])?.['score'] as Json)?.['headlineName'] ?? 'score');
    const parts = engines.map((e) => {
      const engine = String(e?.['engine']);
      if (typeof e?.['notRun'] === 'string') return `${engine} not run (${e['notRun']})`;
      const score = e?.['score'] as Json;
      const figs = (score?.['figures'] as Record<string, number> | undefined) ?? {};
      const v = num(score?.['headline']) ?? Number.NaN;
      const shown =
        name === 'olmocr' ? `${figs['passed']}/${figs['total']} (${percent(v)}; "overall" ${percent(figs['overall'] ?? Number.NaN)})` : v.toFixed(3);
      const rtl = figs['rtl'] !== undefined && name !== 'rtl' ? `, RTL page ${figs['rtl'].toFixed(3)}` : '';
      const detail = name.startsWith('factory') ? factoryDetail(figs) : '';
      return `${engine} ${shown}${detail}${rtl}, ${(num(e?.['pagesPerSecond']) ?? 0).toFixed(2)} p/s`;
    });
    figures.push({
      figure: `${name === 'factory-scans' ? 'Scanned' : 'Born-digital'} quality, ${SET_NAMES[name] ?? name} (${num(set?.['documents'])} PDFs, ${num(set?.['pages'])} pages): ${headline}`,
      value: parts.join('; '),
      command: `npx folio bench quality --set ${name}`,
    });
  }
  return figures;
}

type Json = Record<string, unknown> | undefined;
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Rows for the suites other engineers own (parse, ocr, decode, serve, retrieval), where present. */
function suiteFigures(suites: Readonly<Record<string, unknown>>, decodeCommand: string): Figure[] {
  const figures: Figure[] = [];
  const parse = suites['parse'] as Json;
  const single = (parse?.['runs'] as Json[] | undefined)?.find((r) => r?.['threads'] === 1);
  if (single)
    figures.push({
      figure: 'Parse + quality gate + chunk (10,000 OCR pages, one thread)',
      value: `${num(single['pagesPerSecond'])} pages/s (target 500), peak RSS ${num(parse?.['peakRssMiB'])} MiB`,
      command: 'npx folio bench parse',
    });

  const ocr = suites['ocr'] as Json;
  const cer = (ocr?.['cer'] as Json[] | undefined)?.filter((r) => num(r?.['paddleCer']) !== undefined && num(r?.['tesseractCer']) !== undefined) ?? [];
  if (cer.length > 0) {
    const mean = (key: string): number => cer.reduce((a, r) => a + (num(r?.[key]) ?? 0), 0) / cer.length;
    figures.push({
      figure: `OCR character error rate, ocr_test.pdf at 0/90/180/270° (${cer.length} pages)`,
      value: `paddle ${mean('paddleCer').toFixed(3)} vs Tesseract ${mean('tesseractCer').toFixed(3)}`,
      command: 'npx folio bench ocr',
    });
  }
  for (const r of (ocr?.['olmocr'] as Json[] | undefined) ?? []) {
    const overall = num(r?.['overall']);
    if (overall !== undefined)
      figures.push({
        figure: `olmOCR-Bench dev sample (not the official benchmark), OCR bench --engine ${String(r?.['engine'])}`,
        value: `"overall" ${percent(overall)} (${num(r?.['passed'])}/${num(r?.['total'])} tests, baseline tests included)`,
        command: 'npx folio bench ocr',
      });
  }

  figures.push(...scanFigures(suites['scans'] as Json));

  const decode = suites['decode'] as Json;
  if (typeof decode?.['summary'] === 'string') {
    const model = decode['model'];
    const name = typeof model === 'string' ? model : String((model as Json)?.['name'] ?? 'model');
    figures.push({ figure: `Speculative decoding on this CPU, ${name} (best K vs greedy, batch 1)`, value: String(decode['summary']), command: decodeCommand });
  }

  const math = suites['math'] as Json;
  if (typeof math?.['summary'] === 'string') {
    figures.push({
      figure: 'Formula image → LaTeX, folio-ocr-math through the TS engine on this CPU (held-out synthetic, K=3)',
      value: String(math['summary']),
      command: 'npx folio bench math',
    });
  }

  const serve = suites['serve'] as Json;
  for (const level of (serve?.['levels'] as Json[] | undefined) ?? []) {
    figures.push({
      figure: `folio serve (paddle) driven by the remote engine, concurrency ${num(level?.['concurrency'])}`,
      value: `${num(level?.['convertPagesPerSecond']) !== undefined ? `folio convert ${num(level?.['convertPagesPerSecond'])!.toFixed(2)} pages/s; ` : ''}${(num(level?.['pagesPerSecond']) ?? 0).toFixed(2)} pages/s, p50 ${Math.round(num(level?.['p50Ms']) ?? 0)} ms, p95 ${Math.round(num(level?.['p95Ms']) ?? 0)} ms, client overhead ${percent(num(level?.['clientOverhead']) ?? Number.NaN)}`,
      command: 'npx folio bench serve',
    });
  }

  const plugin = suites['plugin'] as Json;
  for (const set of ['text', 'scans']) {
    const rows = ((plugin?.['results'] as Json[] | undefined) ?? []).filter((r) => r?.['set'] === set);
    const rate = (path: string): string => (num(rows.find((r) => r?.['path'] === path)?.['pagesPerSecond']) ?? 0).toFixed(2);
    if (rows.length === 0) continue;
    const cluster = rows.some((r) => r?.['path'] === 'pipeline-3-nodes') ? `; 3-node cluster ${rate('pipeline-3-nodes')} pages/s` : '';
    figures.push({
      figure: `Elasticsearch ingest plugin (bulk ?pipeline=, folio serve paddle) vs folio ingest, ${set === 'text' ? 'text-layer PDFs' : 'scans'} (${num(rows[0]?.['pages'])} pages)`,
      value: `pipeline ${rate('pipeline')} pages/s vs ingest ${rate('ingest')} (time per page ×${String((plugin?.['ratios'] as Json)?.[set] ?? 'n/a')}, target ≤ 1.5)${cluster}`,
      command: 'npx folio bench plugin',
    });
  }

  const retrieval = suites['retrieval'] as Json;
  for (const mode of (retrieval?.['quality'] as Json[] | undefined) ?? []) {
    figures.push({
      figure: `Retrieval on docling-dev questions, ${String(mode?.['mode'])}`,
      value: `recall@5 ${(num(mode?.['recallAtK']) ?? 0).toFixed(3)}, MRR ${(num(mode?.['mrr']) ?? 0).toFixed(3)}`,
      command: 'npx folio bench retrieval --es URL',
    });
  }
  for (const t of (retrieval?.['throughput'] as Json[] | undefined) ?? []) {
    const rate = num(t?.['chunksPerSecond']);
    if (rate !== undefined)
      figures.push({
        figure: `Embedding throughput (all-MiniLM-L6-v2 int8), ${String(t?.['device'])}`,
        value: `${rate.toFixed(1)} chunks/s`,
        command: 'npx folio bench retrieval --es URL',
      });
  }
  return figures;
}

/** Rows from the scans suite: Folio beside Tesseract per source set of the degraded dev scans. */
function scanFigures(scans: Json): Figure[] {
  const sets = [...(scans?.['devScans'] ? [scans['devScans'] as Json] : []), ...((scans?.['sets'] as Json[] | undefined) ?? [])];
  const figures: Figure[] = [];
  for (const set of sets) {
    const engines = set?.['engines'] as Record<string, Json> | undefined;
    const folio = engines?.['auto'] ?? engines?.['paddle'];
    const tess = engines?.['tesseract'];
    const folioCer = num(folio?.['meanCer']);
    const tessCer = num(tess?.['meanCer']);
    if (folioCer === undefined) continue;
    const speed = (e: Json): string => (num(e?.['pagesPerSecond']) === undefined ? '' : `, ${num(e?.['pagesPerSecond'])!.toFixed(2)} pages/s`);
    figures.push({
      figure: `Degraded scans CER, ${String(set?.['set'])} (${num(set?.['pages'])} pages, ${num(set?.['documents'])} documents)`,
      value: `Folio ${engines?.['auto'] ? 'auto' : 'paddle'} ${folioCer.toFixed(3)}${speed(folio)}${tessCer === undefined ? '' : ` vs Tesseract --psm 1 ${tessCer.toFixed(3)}${speed(tess)}`}`,
      command: 'npx folio bench scans',
    });
  }
  return figures;
}
