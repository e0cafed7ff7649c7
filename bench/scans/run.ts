/**
 * The scan benchmark: Folio (`auto`, and `paddle` on the page image with `--paddle`) beside
 * Tesseract (`--psm 1`, one thread) on the degraded dev scans and on the docling OCR scans,
 * the same page images in the same run; CER, word recall and pages per second per source set.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describeError } from '../../core/errors.ts';
import { sha256 } from '../../core/hash.ts';
import type { SourceDocument } from '../../core/types.ts';
import type { OcrEngine, OcrPageResult } from '../../inference/engine.ts';
import type { PaddleEngineOptions } from '../../inference/paddle/index.ts';
import { createPaddleEngine } from '../../inference/paddle/index.ts';
import { withLayout } from '../../pipeline/layout/index.ts';
import { renderMarkdown } from '../../pipeline/markdown/index.ts';
import { processDocument } from '../../pipeline/run/index.ts';
import { tesseractAvailable, tesseractPage } from '../ocr/index.ts';
import { pageImages } from '../ocr/pages.ts';
import { buildScanSet, readScanManifest } from './build.ts';
import type { PageScore } from './score.ts';
import { scorePage } from './score.ts';

export type ScanEngine = 'auto' | 'paddle' | 'tesseract';

export interface ScanPageRow {
  readonly set: string;
  readonly name: string;
  readonly skewDeg?: number;
  /** The clockwise turn the page was given (the engine must undo it). */
  readonly turn?: number;
  /** Clockwise turn Folio applied to read the page (paddle's `rotation`). */
  readonly folioRotation?: number;
  readonly scores: Partial<Record<ScanEngine, PageScore>>;
  readonly ms: Partial<Record<ScanEngine, number>>;
  readonly cpuMs: Partial<Record<ScanEngine, number>>;
  readonly errors?: Partial<Record<ScanEngine, string>>;
  /** Display formulas `auto` read with folio-ocr-math on the page (prose scans should have none). */
  readonly formulasRead?: number;
}

export interface ScanSetResult {
  readonly set: string;
  readonly pages: number;
  readonly documents: number;
  /** Mean CER, mean word recall and pages per second per engine. */
  readonly engines: Partial<
    Record<
      ScanEngine,
      { readonly meanCer: number; readonly medianCer: number; readonly wordRecall: number; readonly pagesPerSecond: number; readonly cpuSecondsPerPage: number }
    >
  >;
}

export interface ScanQualityResult {
  readonly seed: string;
  readonly sets: readonly ScanSetResult[];
  /** The degraded dev scans together (every set but `docling-ocr`). */
  readonly devScans?: ScanSetResult;
  readonly rows: readonly ScanPageRow[];
  readonly wallS: number;
}

export interface ScanQualityOptions {
  /** @default '../shared/data' */
  readonly dataDir?: string;
  /** Where the dev set is (built there when missing). @default '.cache/scans' */
  readonly scanDir?: string;
  /** Engines to run. @default ['auto', 'tesseract'] */
  readonly engines?: readonly ScanEngine[];
  /** Most pages per set (the first in the manifest's order). @default Infinity */
  readonly limit?: number;
  /** Sets to run: the dev set's source sets and `docling-ocr`. @default all */
  readonly sets?: readonly string[];
  /** Rebuild the dev set first. @default false */
  readonly rebuild?: boolean;
  /** Write each engine's output per page here, for reading the errors. @default '.cache/scans-out' */
  readonly keepDir?: string;
  /** Paddle threads (0: onnxruntime's choice). @default 0 */
  readonly threads?: number;
  /** Other paddle engine options, to compare settings on the same pages. @default {} */
  readonly paddle?: Readonly<Omit<PaddleEngineOptions, 'threads'>>;
  /** Whether `auto` reads display formulas with folio-ocr-math (its default); false: paddle's text alone. @default true */
  readonly formulaRegions?: boolean;
  /** @default console.error */
  readonly log?: (line: string) => void;
}

interface Case {
  readonly set: string;
  readonly name: string;
  readonly pdf: string;
  readonly truth: string;
  readonly skewDeg?: number;
  readonly turn?: number;
  readonly doc: string;
}

const OCR_CASES = ['ocr_test.pdf', 'ocr_test_rotated_90.pdf', 'ocr_test_rotated_180.pdf', 'ocr_test_rotated_270.pdf'] as const;

/**
 * Score the engines on the scan sets.
 *
 * @example
 * const result = await runScanQuality({ limit: 5 });
 * console.log(result.devScans?.engines.auto?.meanCer, result.devScans?.engines.tesseract?.meanCer);
 */
export async function runScanQuality(options: Readonly<ScanQualityOptions> = {}): Promise<ScanQualityResult> {
  const {
    dataDir = '../shared/data',
    scanDir = '.cache/scans',
    engines = ['auto', 'tesseract'],
    limit = Infinity,
    sets,
    rebuild = false,
    keepDir = '.cache/scans-out',
    threads = 0,
    paddle = {},
    formulaRegions = true,
    log = (l: string) => console.error(l),
  } = options;
  const started = performance.now();
  const manifest = (!rebuild && (await readScanManifest(scanDir))) || (await buildScanSet({ dataDir, outDir: scanDir, log }));
  const cases: Case[] = manifest.pages.map((p) => ({
    set: p.set,
    name: p.file.replace(/\.pdf$/, ''),
    doc: p.doc,
    pdf: join(scanDir, p.set, p.file),
    truth: join(scanDir, p.set, p.truth),
    skewDeg: p.degradation.skewDeg,
    turn: p.degradation.turn,
  }));
  const ocrDir = join(dataDir, 'docling-dev/ocr');
  for (const file of OCR_CASES)
    cases.push({
      set: 'docling-ocr',
      name: file.replace(/\.pdf$/, ''),
      doc: 'ocr_test.pdf',
      pdf: join(ocrDir, file),
      truth: join(ocrDir, 'ocr_test.expected.md'),
      turn: Number(/(\d+)\.pdf$/.exec(file)?.[1] ?? 0),
    });
  const wantedSets = sets ?? [...new Set(cases.map((c) => c.set))];
  const perSet = new Map<string, number>();
  const chosen = cases.filter((c) => {
    if (!wantedSets.includes(c.set)) return false;
    const n = perSet.get(c.set) ?? 0;
    perSet.set(c.set, n + 1);
    return n < limit;
  });
  const useTesseract = engines.includes('tesseract') && (await tesseractAvailable());
  if (engines.includes('tesseract') && !useTesseract) log('bench scans: tesseract is not installed (apt-get install tesseract-ocr), its column stays empty');
  const engine = engines.some((e) => e !== 'tesseract') ? withLayout(await createPaddleEngine({ ...paddle, threads })) : undefined;
  const rows: ScanPageRow[] = [];
  try {
    for (const c of chosen) rows.push(await runCase(c, engines, useTesseract, engine, keepDir, log, formulaRegions));
  } finally {
    await engine?.close();
  }
  const docOf = new Map(chosen.map((c) => [`${c.set}/${c.name}`, c.doc]));
  const summarise = (set: string, subset: readonly ScanPageRow[]): ScanSetResult => ({
    set,
    pages: subset.length,
    documents: new Set(subset.map((r) => `${r.set}/${docOf.get(`${r.set}/${r.name}`)}`)).size,
    engines: Object.fromEntries(engines.filter((e) => e !== 'tesseract' || useTesseract).map((e) => [e, summary(subset, e)])),
  });
  const setNames = [...new Set(rows.map((r) => r.set))];
  const dev = rows.filter((r) => r.set !== 'docling-ocr');
  const result: ScanQualityResult = {
    seed: manifest.seed,
    sets: setNames.map((s) =>
      summarise(
        s,
        rows.filter((r) => r.set === s),
      ),
    ),
    ...(dev.length > 0 ? { devScans: summarise('dev scans (all)', dev) } : {}),
    rows,
    wallS: (performance.now() - started) / 1000,
  };
  return result;
}

async function runCase(
  c: Case,
  engines: readonly ScanEngine[],
  useTesseract: boolean,
  engine: OcrEngine | undefined,
  keepDir: string,
  log: (l: string) => void,
  formulaRegions: boolean,
): Promise<ScanPageRow> {
  const truth = await readFile(c.truth, 'utf8');
  const scores: Partial<Record<ScanEngine, PageScore>> = {};
  const ms: Partial<Record<ScanEngine, number>> = {};
  const cpuMs: Partial<Record<ScanEngine, number>> = {};
  const errors: Partial<Record<ScanEngine, string>> = {};
  let folioRotation: number | undefined;
  let formulasRead: number | undefined;
  const keep = async (e: ScanEngine, text: string): Promise<void> => {
    await mkdir(join(keepDir, e, c.set), { recursive: true });
    await writeFile(join(keepDir, e, c.set, `${c.name}.md`), text);
  };
  const [image] = await pageImages(c.pdf, [1]);
  if (image === undefined) throw new Error(`${c.pdf}: no page`);
  if (engine !== undefined && engines.includes('auto')) {
    const t = performance.now();
    const c0 = process.cpuUsage();
    let last: OcrPageResult | undefined;
    const bytes = await readFile(c.pdf);
    const processed = await processDocument(sourceDocument(c.pdf, bytes), {
      engine: 'auto',
      formulaRegions,
      ocr: async () => ({
        name: engine.name,
        recognize: async (pages, o) => {
          const r = await engine.recognize(pages, o);
          last = r[0];
          return r;
        },
        close: async () => undefined,
      }),
    }).catch((e: unknown) => {
      errors.auto = describeError(e);
      return undefined;
    });
    ms.auto = performance.now() - t;
    cpuMs.auto = cpuOf(c0);
    const failed = processed?.pages.find((p) => p.failed !== undefined)?.failed;
    if (failed !== undefined) errors.auto = failed;
    folioRotation = last?.stats['rotation'];
    formulasRead = processed?.elements.filter((e) => e.engine === 'folio-ocr-math').length ?? 0;
    // The truth is the whole page's text (running heads and page numbers too) and Tesseract reads
    // them all: score what auto read, its page furniture included, so the figure stays reading.
    const read = processed === undefined ? '' : renderMarkdown(processed.elements, { furniture: true });
    scores.auto = scorePage(read, truth);
    await keep('auto', read);
  }
  if (engine !== undefined && engines.includes('paddle')) {
    const t = performance.now();
    const c0 = process.cpuUsage();
    const markdown = await engine.recognize([image]).then(
      (r) => {
        folioRotation = r[0]?.stats['rotation'];
        return r[0]?.markdown ?? '';
      },
      (e: unknown) => {
        errors.paddle = describeError(e);
        return '';
      },
    );
    ms.paddle = performance.now() - t;
    cpuMs.paddle = cpuOf(c0);
    scores.paddle = scorePage(markdown, truth);
    await keep('paddle', markdown);
  }
  if (useTesseract) {
    const tess = await tesseractPage(image, { psm: 1 });
    ms.tesseract = tess.ms;
    if (tess.cpuMs !== undefined) cpuMs.tesseract = tess.cpuMs;
    if (tess.error !== undefined) errors.tesseract = tess.error;
    scores.tesseract = scorePage(tess.text, truth);
    await keep('tesseract', tess.text);
  }
  const row: ScanPageRow = {
    set: c.set,
    name: c.name,
    ...(c.skewDeg === undefined ? {} : { skewDeg: c.skewDeg }),
    ...(c.turn === undefined ? {} : { turn: c.turn }),
    ...(folioRotation === undefined ? {} : { folioRotation }),
    scores,
    ms,
    cpuMs,
    ...(Object.keys(errors).length > 0 ? { errors } : {}),
    ...(formulasRead === undefined ? {} : { formulasRead }),
  };
  log(
    `scans ${c.set}/${c.name} (skew ${c.skewDeg?.toFixed(2) ?? '-'}°, turn ${c.turn ?? 0}, folio rotation ${folioRotation ?? '-'}): ${Object.entries(scores)
      .map(([e, s]) => `${e} CER ${s.cer.toFixed(3)} recall ${s.wordRecall.toFixed(2)} ${((ms[e as ScanEngine] ?? 0) / 1000).toFixed(1)} s`)
      .join('; ')}${formulasRead ? `; auto read ${formulasRead} formulas` : ''}`,
  );
  return row;
}

function summary(
  rows: readonly ScanPageRow[],
  engine: ScanEngine,
): { meanCer: number; medianCer: number; wordRecall: number; pagesPerSecond: number; cpuSecondsPerPage: number } {
  const scored = rows.filter((r) => r.scores[engine] !== undefined);
  const cers = scored.map((r) => r.scores[engine]!.cer).sort((a, b) => a - b);
  const mean = (xs: readonly number[]): number => (xs.length === 0 ? Number.NaN : xs.reduce((s, x) => s + x, 0) / xs.length);
  const ms = scored.reduce((s, r) => s + (r.ms[engine] ?? 0), 0);
  const cpu = scored.reduce((s, r) => s + (r.cpuMs[engine] ?? 0), 0);
  return {
    meanCer: mean(cers),
    medianCer:
      cers.length === 0 ? Number.NaN : cers.length % 2 === 1 ? cers[(cers.length - 1) / 2]! : (cers[cers.length / 2 - 1]! + cers[cers.length / 2]!) / 2,
    wordRecall: mean(scored.map((r) => r.scores[engine]!.wordRecall)),
    pagesPerSecond: ms > 0 ? scored.length / (ms / 1000) : Number.NaN,
    cpuSecondsPerPage: scored.length > 0 ? cpu / 1000 / scored.length : Number.NaN,
  };
}

function cpuOf(since: NodeJS.CpuUsage): number {
  const c = process.cpuUsage(since);
  return (c.user + c.system) / 1000;
}

function sourceDocument(path: string, bytes: Uint8Array): SourceDocument {
  return { id: sha256(path), uri: `file://${path}`, relativePath: path, mime: 'application/pdf', bytes, contentHash: sha256(bytes) };
}
