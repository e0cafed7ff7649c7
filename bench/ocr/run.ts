/**
 * `folio bench ocr`: the embedded `paddle` engine against Tesseract on the same page images
 * (character error rate on the docling OCR scans and their rotations, pages per second), the
 * olmOCR-Bench dev score with paddle forced and with `auto` routing, and a robustness run over
 * the gnarly PDFs with peak memory. Writes `ocr.md` and `ocr.json` into the results folder.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describeError } from '../../core/errors.ts';
import { sha256 } from '../../core/hash.ts';
import type { SourceDocument } from '../../core/types.ts';
import type { OcrEngine } from '../../inference/engine.ts';
import { createPaddleEngine } from '../../inference/paddle/index.ts';
import { withLayout } from '../../pipeline/layout/index.ts';
import { processDocument } from '../../pipeline/run/index.ts';
import { peakRssMiB } from '../common/index.ts';
import { loadDataset, scoreMarkdown } from '../olmocr/index.ts';
import { characterErrorRate, plainText } from './cer.ts';
import { pageImages } from './pages.ts';
import type { CerRow, GnarlyRow, OcrBenchResult, OlmocrRow } from './report.ts';
import { ocrReport } from './report.ts';
import { tesseractAvailable, tesseractPage } from './tesseract.ts';

export interface OcrBenchOptions {
  /**
   * Arguments after `folio bench ocr`: `--no-tesseract`, `--no-cer`, `--no-olmocr`, `--no-gnarly`,
   * `--threads N`, `--keep DIR` (keep the olmOCR Markdown per engine under DIR).
   */
  readonly argv?: readonly string[];
  /** Folder for `ocr.md` and `ocr.json`. @default 'bench/results' */
  readonly resultsDir?: string;
  /** The shared data folder. @default '../shared/data' */
  readonly dataDir?: string;
  /** Progress lines. @default console.error */
  readonly log?: (line: string) => void;
}

/**
 * Run the OCR benchmark and write its report.
 *
 * @example
 * const result = await runOcrBench({ argv: ['--no-gnarly'] });
 */
export async function runOcrBench(options: Readonly<OcrBenchOptions> = {}): Promise<OcrBenchResult> {
  const { argv = [], resultsDir = 'bench/results', dataDir = '../shared/data', log = (line: string) => console.error(line) } = options;
  const flag = (name: string): boolean => argv.includes(name);
  const threadsAt = argv.indexOf('--threads');
  const threads = threadsAt >= 0 ? Number(argv[threadsAt + 1]) : 0;
  const useTesseract = !flag('--no-tesseract') && (await tesseractAvailable());
  const engine = withLayout(await createPaddleEngine({ threads }));
  const started = performance.now();
  try {
    const cer = flag('--no-cer') ? [] : await cerSuite(engine, dataDir, useTesseract, log);
    const keepAt = argv.indexOf('--keep');
    const keep = keepAt >= 0 ? argv[keepAt + 1] : undefined;
    const olmocr = flag('--no-olmocr') ? [] : await olmocrSuite(engine, dataDir, useTesseract, log, keep);
    const gnarly = flag('--no-gnarly') ? [] : await gnarlySuite(engine, dataDir, log);
    const result: OcrBenchResult = { cer, olmocr, gnarly, tesseract: useTesseract, peakRssMiB: peakRssMiB(), wallS: (performance.now() - started) / 1000 };
    await mkdir(resultsDir, { recursive: true });
    await writeFile(join(resultsDir, 'ocr.json'), `${JSON.stringify(result, null, 2)}\n`);
    await writeFile(join(resultsDir, 'ocr.md'), ocrReport(result));
    log(`bench ocr: wrote ${join(resultsDir, 'ocr.md')}`);
    return result;
  } finally {
    await engine.close();
  }
}

const OCR_CASES = ['ocr_test.pdf', 'ocr_test_rotated_90.pdf', 'ocr_test_rotated_180.pdf', 'ocr_test_rotated_270.pdf', '2206.01062.tif'] as const;

async function cerSuite(engine: OcrEngine, dataDir: string, useTesseract: boolean, log: (l: string) => void): Promise<CerRow[]> {
  const dir = join(dataDir, 'docling-dev/ocr');
  const expected = await readFile(join(dir, 'ocr_test.expected.md'), 'utf8');
  const rows: CerRow[] = [];
  for (const name of OCR_CASES) {
    const images = await pageImages(join(dir, name));
    for (const image of images) {
      const t = performance.now();
      const c0 = process.cpuUsage();
      const [result] = await engine.recognize([image]);
      const paddleMs = performance.now() - t;
      const c1 = process.cpuUsage(c0);
      const paddle = result?.markdown ?? '';
      const tess = useTesseract ? await tesseractPage(image) : undefined;
      // Only the ocr_test scans have a reference; the TIFF has none, so the two engines are
      // compared with each other there (agreement, not accuracy).
      const reference = name.startsWith('ocr_test') ? expected : undefined;
      const row: CerRow = {
        file: name,
        page: image.pageNumber,
        width: image.width,
        height: image.height,
        paddleMs,
        paddleCpuMs: (c1.user + c1.system) / 1000,
        paddleCer: reference === undefined ? undefined : characterErrorRate(paddle, reference),
        rotation: result?.stats.rotation ?? 0,
        paddleChars: plainText(paddle).length,
        paddleStages: stagesOf(result?.stats ?? {}),
        ...(tess === undefined
          ? {}
          : {
              tesseractMs: tess.ms,
              ...(tess.cpuMs === undefined ? {} : { tesseractCpuMs: tess.cpuMs }),
              tesseractCer: reference === undefined ? undefined : characterErrorRate(tess.text, reference),
              tesseractChars: plainText(tess.text).length,
              agreement: reference === undefined ? 1 - Math.min(1, characterErrorRate(paddle, tess.text)) : undefined,
            }),
      };
      rows.push(row);
      log(
        `ocr ${name} p${image.pageNumber}: paddle ${paddleMs.toFixed(0)} ms CER ${row.paddleCer?.toFixed(3) ?? '-'}; tesseract ${row.tesseractMs?.toFixed(0) ?? '-'} ms CER ${row.tesseractCer?.toFixed(3) ?? '-'}`,
      );
    }
  }
  return rows;
}

async function olmocrSuite(engine: OcrEngine, dataDir: string, useTesseract: boolean, log: (l: string) => void, keep?: string): Promise<OlmocrRow[]> {
  const root = join(dataDir, 'olmocr-bench-dev');
  const dataset = join(root, 'dataset.jsonl');
  const tests = await loadDataset({ dataset });
  const pages = new Map<string, Set<number>>();
  for (const { test } of tests) pages.set(test.pdf, (pages.get(test.pdf) ?? new Set()).add(test.page));
  const out = keep ?? (await mkdtemp(join(tmpdir(), 'folio-bench-ocr-')));
  const timing = { paddle: 0, tesseract: 0, auto: 0 };
  const paddleStages: Record<string, number> = {};
  const cpu = { paddle: 0, tesseract: 0, auto: 0 };
  let pageCount = 0;
  try {
    for (const [pdf, wanted] of pages) {
      const path = join(root, 'pdfs', pdf);
      const base = pdf.replace(/\.pdf$/i, '');
      let images;
      try {
        images = await pageImages(path, [...wanted]);
      } catch (error) {
        log(`olmocr ${pdf}: cannot render (${describeError(error)})`);
        continue;
      }
      for (const image of images) {
        pageCount++;
        const t = performance.now();
        const c0 = process.cpuUsage();
        const markdown = await engine.recognize([image]).then(
          (r) => {
            for (const [k, v] of Object.entries(stagesOf(r[0]?.stats ?? {}))) paddleStages[k] = (paddleStages[k] ?? 0) + v;
            return r[0]?.markdown ?? '';
          },
          (e: unknown) => {
            log(`olmocr ${pdf}: ${describeError(e)}`);
            return '';
          },
        );
        timing.paddle += performance.now() - t;
        const c1 = process.cpuUsage(c0);
        cpu.paddle += (c1.user + c1.system) / 1000;
        await put(join(out, 'paddle', `${base}_pg${image.pageNumber}_repeat1.md`), markdown);
        if (useTesseract) {
          const tess = await tesseractPage(image);
          timing.tesseract += tess.ms;
          cpu.tesseract += tess.cpuMs ?? Number.NaN;
          await put(join(out, 'tesseract', `${base}_pg${image.pageNumber}_repeat1.md`), tess.text);
        }
      }
      const t = performance.now();
      const c0 = process.cpuUsage();
      const bytes = await readFile(path);
      const processed = await processDocument(sourceDocument(path, bytes, pdf), { engine: 'auto', ocr: async () => borrowed(engine) }).catch((e: unknown) => {
        log(`olmocr auto ${pdf}: ${describeError(e)}`);
        return undefined;
      });
      timing.auto += performance.now() - t;
      const c1 = process.cpuUsage(c0);
      cpu.auto += (c1.user + c1.system) / 1000;
      await put(join(out, 'auto', `${base}.md`), processed?.markdown ?? '');
      log(`olmocr ${pdf}: done (auto routes: ${processed?.pages.map((p) => `${p.engine}/${p.reason}`).join(', ') ?? 'failed'})`);
    }
    const rows: OlmocrRow[] = [];
    const engines: ('paddle' | 'auto' | 'tesseract')[] = useTesseract ? ['paddle', 'auto', 'tesseract'] : ['paddle', 'auto'];
    for (const name of engines) {
      const score = await scoreMarkdown({ dataset, markdown: join(out, name) });
      rows.push({
        engine: name,
        overall: score.overall,
        passed: score.passed,
        total: score.total,
        byType: Object.fromEntries(Object.entries(score.byType).map(([k, v]) => [k, v.score])),
        ms: timing[name],
        cpuMs: cpu[name],
        pages: pageCount,
        ...(name === 'paddle' ? { stages: paddleStages } : {}),
      });
    }
    return rows;
  } finally {
    if (keep === undefined) await rm(out, { recursive: true, force: true });
  }
}

async function gnarlySuite(engine: OcrEngine, dataDir: string, log: (l: string) => void): Promise<GnarlyRow[]> {
  const dir = join(dataDir, 'gnarly');
  const files = (await readdir(dir)).filter((f) => f.toLowerCase().endsWith('.pdf')).sort();
  const rows: GnarlyRow[] = [];
  for (const file of files) {
    const path = join(dir, file);
    const t = performance.now();
    try {
      const bytes = await readFile(path);
      const result = await processDocument(sourceDocument(path, bytes, file), { engine: 'auto', ocr: async () => borrowed(engine) });
      const ocrPages = result.pages.filter((p) => p.engine !== 'text').length;
      rows.push({
        file,
        ok: result.ok,
        pages: result.pages.length,
        ocrPages,
        failedPages: result.pages.filter((p) => p.failed !== undefined).length,
        failures: result.failures.map((f) => `${f.pageNumber ?? '-'}: ${f.reason}`).slice(0, 3),
        ms: performance.now() - t,
        rssMiB: peakRssMiB(),
      });
    } catch (error) {
      rows.push({
        file,
        ok: false,
        pages: 0,
        ocrPages: 0,
        failedPages: 0,
        failures: [`threw: ${describeError(error)}`],
        ms: performance.now() - t,
        rssMiB: peakRssMiB(),
      });
    }
    const row = rows[rows.length - 1]!;
    log(
      `gnarly ${file}: ${row.ok ? 'ok' : 'FAILED'} ${row.pages} pages (${row.ocrPages} OCR, ${row.failedPages} failed) in ${(row.ms / 1000).toFixed(1)} s, peak RSS ${row.rssMiB} MiB`,
    );
  }
  return rows;
}

/**
 * The paddle engine's per-stage milliseconds (`detRunMs`, `recRunMs`, …) and recogniser work
 * (`recColumns`) from a page's stats, without the totals.
 */
function stagesOf(stats: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(stats).filter(([k]) => (k.endsWith('Ms') && !['detMs', 'recMs', 'ms'].includes(k)) || k === 'recColumns'));
}

/** The shared engine lent to `processDocument`, which closes what it is given. */
function borrowed(engine: OcrEngine): OcrEngine {
  return { name: engine.name, recognize: (pages, options) => engine.recognize(pages, options), close: async () => undefined };
}

function sourceDocument(path: string, bytes: Uint8Array, relativePath: string): SourceDocument {
  return {
    id: sha256(path),
    uri: `file://${path}`,
    relativePath,
    mime: path.toLowerCase().endsWith('.pdf') ? 'application/pdf' : 'image/tiff',
    bytes,
    contentHash: sha256(bytes),
  };
}

async function put(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}
