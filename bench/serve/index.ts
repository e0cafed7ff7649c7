/**
 * `folio bench serve`: one `folio serve` process with the paddle engine, driven by the `remote`
 * engine (the client `folio convert --engine remote` uses) at concurrency 1, 8 and 32 over the
 * same pages: pages/s, latency percentiles, and the client's own share of each request's time.
 * Then autocannon against `/health` for the server's floor. Everything in one run.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import autocannon from 'autocannon';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import type { PageImage } from '../../inference/engine.ts';
import { createRemoteEngine } from '../../inference/remote/index.ts';
import { loadImagePages } from '../../pipeline/render/index.ts';
import { startFolioServe } from '../common/folio-serve.ts';
import { machineInfo, machineMarkdown, markdownTable, median, percent, round } from '../common/index.ts';

export interface ServeBenchOptions {
  readonly argv: readonly string[];
  readonly resultsDir: string;
}

interface LevelResult {
  readonly concurrency: number;
  /** `folio convert --engine remote` over the same pages as one PDF, end to end. */
  readonly convertPagesPerSecond: number;
  readonly pages: number;
  readonly pagesPerSecond: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly clientOverhead: number;
  readonly retries: number;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function pagesFor(count: number): Promise<PageImage[]> {
  const sources = ['examples/docs/scanned-memo.png', '../shared/data/docling-dev/ocr/2206.01062.tif'];
  const pool: PageImage[] = [];
  for (const source of sources) pool.push(...(await loadImagePages(new Uint8Array(await readFile(source)), { source, docId: source })));
  return Array.from({ length: count }, (_, i) => ({ ...pool[i % pool.length]!, pageNumber: i + 1 }));
}

/** The pages as one PDF, one image per page, so `folio convert` sends them as a document would. */
async function pagesPdf(pages: readonly PageImage[], path: string): Promise<void> {
  const pdf = await PDFDocument.create();
  for (const page of pages) {
    const png = await pdf.embedPng(
      await sharp(page.data, { raw: { width: page.width, height: page.height, channels: page.channels } })
        .png()
        .toBuffer(),
    );
    const width = (page.width * 72) / 200;
    const height = (page.height * 72) / 200;
    pdf.addPage([width, height]).drawImage(png, { x: 0, y: 0, width, height });
  }
  await writeFile(path, await pdf.save());
}

/** The real client: the CLI converting that PDF through the remote engine. */
async function convertRun(url: string, pdf: string, pages: number, concurrency: number): Promise<number> {
  const out = await mkdtemp(join(tmpdir(), 'folio-serve-bench-'));
  try {
    const started = performance.now();
    await promisify(execFile)(process.execPath, [
      'bin/folio.ts',
      'convert',
      pdf,
      '--out-dir',
      out,
      '--engine',
      'remote',
      '--remote-url',
      url,
      '--remote-model',
      'folio-paddle',
      '--concurrency',
      String(concurrency),
      '-q',
    ]);
    return pages / ((performance.now() - started) / 1000);
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

async function level(url: string, pages: readonly PageImage[], concurrency: number, pdf: string): Promise<LevelResult> {
  const convertPagesPerSecond = await convertRun(url, pdf, pages.length, concurrency);
  const engine = createRemoteEngine({ urls: [url], model: 'folio-paddle', concurrency });
  const started = performance.now();
  const results = await engine.recognize(pages);
  const seconds = (performance.now() - started) / 1000;
  const ms = results.map((r) => r.stats.ms ?? 0);
  const overhead = results.map((r) => ((r.stats.ms ?? 0) - (r.stats.requestMs ?? 0)) / (r.stats.ms ?? 1));
  return {
    concurrency,
    convertPagesPerSecond,
    pages: pages.length,
    pagesPerSecond: pages.length / seconds,
    p50Ms: percentile(ms, 50),
    p95Ms: percentile(ms, 95),
    clientOverhead: median(overhead),
    retries: engine.stats.retries,
  };
}

export async function runServeBench(options: Readonly<ServeBenchOptions>): Promise<unknown> {
  const { values } = parseArgs({
    args: [...options.argv],
    options: { pages: { type: 'string', default: '16' }, levels: { type: 'string', default: '1,8,32' } },
    strict: true,
  });
  const pages = await pagesFor(Number(values.pages));
  const levels = values.levels.split(',').map(Number);
  const { url, child } = await startFolioServe();
  const work = await mkdtemp(join(tmpdir(), 'folio-serve-pages-'));
  const pdf = join(work, 'pages.pdf');
  await pagesPdf(pages, pdf);
  try {
    await createRemoteEngine({ urls: [url], model: 'folio-paddle' }).recognize(pages.slice(0, 2)); // warm-up: model load, first allocations
    const results: LevelResult[] = [];
    for (const concurrency of levels) {
      results.push(await level(url, pages, concurrency, pdf));
      console.error(`serve: concurrency ${concurrency}: ${round(results.at(-1)!.pagesPerSecond, 2)} pages/s`);
    }
    const floor = await autocannon({ url: `${url}/health`, connections: 32, duration: 5 });
    const machine = machineInfo();
    const report = {
      machine,
      engine: 'paddle (CPU) behind folio serve, one process',
      levels: results,
      health: { requestsPerSecond: floor.requests.average, p50Ms: floor.latency.p50, p99Ms: floor.latency.p99 },
    };
    const md = [
      '# folio serve',
      '',
      `\`npx folio bench serve\` — ${pages.length} page images (the example memo and the 2206.01062 TIFF, repeated), one \`folio serve --engine paddle\` process. Each concurrency level runs \`folio convert --engine remote --concurrency N\` on the pages as one PDF (end to end, rendering included), then the remote engine alone on the same page images for latency and client overhead.`,
      '',
      markdownTable(
        [
          'concurrency',
          'pages',
          '`folio convert --engine remote` pages/s',
          'remote engine pages/s',
          'p50 latency (ms)',
          'p95 latency (ms)',
          'client overhead',
          'retries',
        ],
        results.map((r) => [
          r.concurrency,
          r.pages,
          round(r.convertPagesPerSecond, 2),
          round(r.pagesPerSecond, 2),
          Math.round(r.p50Ms),
          Math.round(r.p95Ms),
          percent(r.clientOverhead),
          r.retries,
        ]),
      ),
      '',
      `Latency: from the moment a page's request gets a slot (the client keeps at most \`concurrency\` requests in flight) until its answer. Client overhead: the median share of that time spent in the client (PNG encoding, JSON, parsing) rather than on the wire and at the server. Target < 2%. The server is CPU-bound on these 2 cores, so more concurrency queues pages at the server instead of finishing them sooner.`,
      '',
      `\`/health\` floor (autocannon, 32 connections, 5 s): ${Math.round(floor.requests.average)} requests/s, p50 ${floor.latency.p50} ms, p99 ${floor.latency.p99} ms.`,
      '',
      machineMarkdown(machine),
      '',
    ].join('\n');
    await mkdir(options.resultsDir, { recursive: true });
    await writeFile(join(options.resultsDir, 'serve.md'), md);
    await writeFile(join(options.resultsDir, 'serve.json'), JSON.stringify(report, null, 2));
    console.log(md);
    return report;
  } finally {
    child.kill('SIGTERM');
    await rm(work, { recursive: true, force: true });
  }
}
