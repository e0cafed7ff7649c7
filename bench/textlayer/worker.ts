/**
 * One timed pass of an in-process Folio phase over a list of PDFs, in its own process so its peak
 * memory is its own: `node bench/textlayer/worker.ts <phase> <pdf>...` prints one JSON line
 * `{phase, pages, ms, cpuSeconds, peakRssMiB, failures}`. Timing starts after the modules are
 * loaded; the `ingest-*` phases (see `ingest.ts`) time the command line instead, start-up included.
 *
 * Phases, each one step further down the pipeline, all on one thread:
 * - `extract`: PDFium's characters of every page (`readPageText`), the extraction step itself and
 *   the floor under everything after it;
 * - `pages`: extraction → text-layer analysis (runs, reading order, tables) → Markdown → elements
 *   → quality gate, per page;
 * - `process`: the whole document (`processDocument`, engine text): pages, elements, chunks.
 *
 * Pipeline modules are loaded by computed specifier and used through the small interfaces below,
 * so this bench keeps compiling while their signatures settle.
 */
import { peakRssMiB } from '../common/stats.ts';

interface SourceLike {
  readonly uri: string;
  readonly mime?: string;
}
type SourcesFrom = (inputs: readonly string[]) => AsyncIterable<SourceLike & Record<string, unknown>>;
interface PdfHandleLike {
  readonly numPages: number;
  readPage<T>(pageNumber: number, read: (page: unknown) => T): T;
  close(): Promise<void>;
}
type OpenPdf = (bytes: Uint8Array, options: { source: string }) => Promise<PdfHandleLike>;
type ReadPageText = (page: unknown) => { readonly glyphs: number };
type PdfPages = (doc: unknown, options: Record<string, unknown>) => AsyncIterable<{ ok: boolean }>;
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
  /** CPU seconds (user + system) of the timed part. */
  readonly cpuSeconds: number;
  readonly peakRssMiB: number;
  readonly failures: number;
}

/** The in-process phases, in pipeline order. */
export const WORKER_PHASES: readonly string[] = ['extract', 'pages', 'process'];

/** Run one phase in this process and report pages, time, CPU time and peak RSS. */
export async function runWorkerPhase(phase: string, files: readonly string[]): Promise<WorkerReport> {
  if (!WORKER_PHASES.includes(phase)) throw new Error(`unknown phase \`${phase}\`; expected ${WORKER_PHASES.join(', ')}`);
  const sourcesFrom = await load<SourcesFrom>('../../connector/index.ts', 'sourcesFrom');
  let pages = 0;
  let failures = 0;
  let pass: () => Promise<void>;
  if (phase === 'extract') {
    const openPdf = await load<OpenPdf>('../../pipeline/pdf/index.ts', 'openPdf');
    const readPageText = await load<ReadPageText>('../../pipeline/text-layer/index.ts', 'readPageText');
    pass = async () => {
      for await (const doc of sourcesFrom(files)) {
        const bytes = doc['bytes'];
        if (!(bytes instanceof Uint8Array)) {
          failures++;
          continue;
        }
        const pdf = await openPdf(bytes, { source: doc.uri });
        try {
          for (let n = 1; n <= pdf.numPages; n++) {
            pdf.readPage(n, readPageText);
            pages++;
          }
        } finally {
          await pdf.close();
        }
      }
    };
  } else if (phase === 'pages') {
    const pdfPages = await load<PdfPages>('../../pipeline/run/pdf-pages.ts', 'pdfPages');
    pass = async () => {
      for await (const doc of sourcesFrom(files)) {
        for await (const page of pdfPages(doc, { engine: 'text' })) {
          pages++;
          if (!page.ok) failures++;
        }
      }
    };
  } else {
    const processDocument = await load<ProcessDocument>('../../pipeline/run/index.ts', 'processDocument');
    pass = async () => {
      for await (const doc of sourcesFrom(files)) {
        const result = await processDocument(doc, { engine: 'text' });
        pages += result.pages.length;
        failures += result.failures.length;
      }
    };
  }
  const cpu = process.cpuUsage();
  const start = performance.now();
  await pass();
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { phase, pages, ms, cpuSeconds: Math.round((used.user + used.system) / 1e4) / 100, peakRssMiB: peakRssMiB(), failures };
}

if (import.meta.main) {
  const [phase, ...files] = process.argv.slice(2);
  const report = await runWorkerPhase(phase ?? '', files);
  process.stdout.write(`${JSON.stringify(report)}\n`);
}
