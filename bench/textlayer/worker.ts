/**
 * One timed pass of a Folio phase over a list of PDFs, in its own process so its peak memory is
 * its own: `node bench/textlayer/worker.ts <phase> <pdf>...` prints one JSON line
 * `{phase, pages, ms, peakRssMiB, failures}`. Timing starts after the modules are loaded.
 *
 * Phases: `pdfjs` (pdf.js text content of every page, the floor under any extraction), `pages`
 * (Folio's text layer to Markdown, parsed and graded per page), `process` (the whole document:
 * pages, elements, chunks), `ingest-ndjson` and `ingest-es` (the `ingest` job end to end into
 * NDJSON files or Elasticsearch, no embeddings, nothing skipped as unchanged; the Elasticsearch
 * indices are fresh per run — set `FOLIO_BENCH_ES` — and deleted afterwards).
 *
 * Pipeline modules are loaded by computed specifier and used through the small interfaces below,
 * so this bench keeps compiling while their signatures settle.
 */
import { peakRssMiB } from '../common/stats.ts';

interface SourceLike { readonly uri: string; readonly mime?: string }
type SourcesFrom = (inputs: readonly string[]) => AsyncIterable<SourceLike & Record<string, unknown>>;
interface PdfHandleLike {
  readonly numPages: number;
  page(n: number): Promise<{ getTextContent(): Promise<{ items: unknown[] }>; cleanup(): void }>;
  close(): Promise<void>;
}
type OpenPdf = (bytes: Uint8Array, options: { source: string }) => Promise<PdfHandleLike>;
type PdfPages = (doc: unknown, options: Record<string, unknown>) => AsyncIterable<{ ok: boolean }>;
interface SinkLike { close(): Promise<unknown> }
type Ingest = (sources: AsyncIterable<unknown>, options: Record<string, unknown>) => Promise<{ pages?: number; documents?: number; failures?: readonly { reason?: string }[] }>;
type ProcessDocument = (doc: unknown, options: Record<string, unknown>) => Promise<{ ok: boolean; pages: readonly unknown[]; failures: readonly unknown[] }>;

const load = async <T>(specifier: string, name: string): Promise<T> => {
  const mod = (await import(new URL(specifier, import.meta.url).href)) as Record<string, unknown>;
  if (typeof mod[name] !== 'function') throw new Error(`${specifier} does not export ${name}`);
  return mod[name] as T;
};

export interface WorkerReport {
  readonly phase: string;
  readonly pages: number;
  readonly ms: number;
  readonly peakRssMiB: number;
  readonly failures: number;
}

/** Run one phase in this process and report pages, time and peak RSS. */
export async function runWorkerPhase(phase: string, files: readonly string[]): Promise<WorkerReport> {
  const sourcesFrom = await load<SourcesFrom>('../../connector/index.ts', 'sourcesFrom');
  let pages = 0;
  let failures = 0;
  let start: number;
  if (phase === 'pdfjs') {
    const openPdf = await load<OpenPdf>('../../pipeline/pdf/index.ts', 'openPdf');
    start = performance.now();
    for await (const doc of sourcesFrom(files)) {
      const bytes = doc['bytes'];
      if (!(bytes instanceof Uint8Array)) {
        failures++;
        continue;
      }
      // pdf.js takes ownership of the buffer it is given; hand it a copy.
      const pdf = await openPdf(bytes.slice(), { source: doc.uri });
      try {
        for (let n = 1; n <= pdf.numPages; n++) {
          const page = await pdf.page(n);
          await page.getTextContent();
          page.cleanup();
          pages++;
        }
      } finally {
        await pdf.close();
      }
    }
  } else if (phase === 'pages') {
    const pdfPages = await load<PdfPages>('../../pipeline/run/pdf-pages.ts', 'pdfPages');
    start = performance.now();
    for await (const doc of sourcesFrom(files)) {
      for await (const page of pdfPages(doc, { engine: 'text' })) {
        pages++;
        if (!page.ok) failures++;
      }
    }
  } else if (phase === 'process') {
    const processDocument = await load<ProcessDocument>('../../pipeline/run/index.ts', 'processDocument');
    start = performance.now();
    for await (const doc of sourcesFrom(files)) {
      const result = await processDocument(doc, { engine: 'text' });
      pages += result.pages.length;
      failures += result.failures.length;
    }
  } else if (phase === 'ingest-ndjson' || phase === 'ingest-es') {
    const ingest = await load<Ingest>('../../pipeline/run/index.ts', 'ingest');
    const sinks = (await import(new URL('../../pipeline/sink/index.ts', import.meta.url).href)) as Record<string, (o: Record<string, unknown>) => Promise<SinkLike>>;
    const { mkdtemp, rm } = await import('node:fs/promises');
    const os = await import('node:os');
    const path = await import('node:path');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-ingest-'));
    const es = process.env['FOLIO_BENCH_ES'];
    if (phase === 'ingest-es' && !es) throw new Error('ingest-es needs FOLIO_BENCH_ES=<url>');
    // Fresh indices per run, so nothing is skipped as already indexed.
    const suffix = `${process.pid}-${Date.now()}`;
    const indices = { index: `folio-bench-chunks-${suffix}`, documentsIndex: `folio-bench-docs-${suffix}`, failuresIndex: `folio-bench-failures-${suffix}` };
    start = performance.now();
    const sink = phase === 'ingest-es'
      ? await sinks['createEsSink']!({ url: es, ...indices, dims: 384, fallbackFile: path.join(dir, 'failures.jsonl') })
      : await sinks['createNdjsonSink']!({ outDir: dir });
    try {
      const summary = await ingest(sourcesFrom(files), { sink, engine: 'text', skipUnchanged: false });
      pages = summary.pages ?? 0;
      failures = summary.failures?.length ?? 0;
      for (const f of summary.failures?.slice(0, 5) ?? []) process.stderr.write(`ingest failure: ${(f.reason ?? JSON.stringify(f)).slice(0, 200)}\n`);
    } finally {
      await sink.close();
    }
    const ms = performance.now() - start;
    await rm(dir, { recursive: true, force: true });
    if (phase === 'ingest-es') {
      await fetch(`${es!.replace(/\/$/, '')}/${Object.values(indices).join(',')}?ignore_unavailable=true`, { method: 'DELETE' }).catch(() => undefined);
    }
    return { phase, pages, ms, peakRssMiB: peakRssMiB(), failures };
  } else {
    throw new Error(`unknown phase \`${phase}\`; expected pdfjs, pages, process, ingest-ndjson or ingest-es`);
  }
  return { phase, pages, ms: performance.now() - start, peakRssMiB: peakRssMiB(), failures };
}

if (import.meta.main) {
  const [phase, ...files] = process.argv.slice(2);
  const report = await runWorkerPhase(phase ?? '', files);
  process.stdout.write(`${JSON.stringify(report)}\n`);
}
