/**
 * CPU-time throughput of the text-layer route, phase by phase, for comparing changes on a shared
 * (loaded) machine where wall time means little: `npx node test/pipeline/parallel/cpu-bench.ts
 * <phase> [--repeat N] [pdf...]` prints pages, CPU seconds (user + system, all threads of this
 * process) and pages per CPU-second. Not a test: mocha only picks up `*.test.ts`.
 *
 * Phases: `pdfjs` (getTextContent of every page), `textlayer` (extractTextLayer), `pages`
 * (pdfPages, engine text: + parse and quality gate), `process` (processDocument, engine text:
 * + chunking), `parallel` (processInParallel over worker threads; CPU of the workers included).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sourcesFrom } from '../../../connector/index.ts';
import { openPdf } from '../../../pipeline/pdf/index.ts';
import { processDocument } from '../../../pipeline/run/index.ts';
import { pdfPages } from '../../../pipeline/run/pdf-pages.ts';
import { extractTextLayer } from '../../../pipeline/text-layer/index.ts';

const DIRS = ['../shared/data/docling-dev/pdf', '../shared/data/gnarly'];

async function defaultFiles(): Promise<string[]> {
  const out: string[] = [];
  for (const dir of DIRS) {
    for (const name of (await readdir(dir)).sort()) if (name.endsWith('.pdf') && !/password/.test(name)) out.push(path.join(dir, name));
  }
  return out;
}

async function once(phase: string, files: readonly string[], workers: number): Promise<{ pages: number; failures: number }> {
  let pages = 0;
  let failures = 0;
  if (phase === 'pdfjs' || phase === 'textlayer') {
    for (const file of files) {
      const pdf = await openPdf(new Uint8Array(await readFile(file)), { source: file });
      try {
        if (phase === 'textlayer') {
          for await (const page of extractTextLayer(pdf)) {
            pages++;
            if (page.assessment.reason === 'page-error') failures++;
          }
        } else {
          for (let n = 1; n <= pdf.numPages; n++) {
            const page = await pdf.page(n);
            await page.getTextContent();
            page.cleanup();
            pages++;
          }
        }
      } finally {
        await pdf.close();
      }
    }
  } else if (phase === 'pages') {
    for await (const doc of sourcesFrom(files)) {
      if (!('bytes' in doc)) continue;
      for await (const page of pdfPages(doc, { engine: 'text' })) {
        pages++;
        if (!page.ok) failures++;
      }
    }
  } else if (phase === 'process') {
    for await (const doc of sourcesFrom(files)) {
      if (!('bytes' in doc)) continue;
      const result = await processDocument(doc, { engine: 'text' });
      pages += result.pages.length;
      failures += result.failures.length;
    }
  } else if (phase === 'parallel') {
    const { processInParallel } = await import('../../../pipeline/parallel/index.ts');
    for await (const result of processInParallel(sourcesFrom(files), { engine: 'text', workers })) {
      if ('pages' in result) {
        pages += result.pages.length;
        failures += result.failures.length;
      } else failures++;
    }
  } else {
    throw new Error(`unknown phase ${phase}`);
  }
  return { pages, failures };
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { repeat: { type: 'string' }, workers: { type: 'string' } } });
const [phase = 'textlayer', ...rest] = positionals;
const files = rest.length > 0 ? rest : await defaultFiles();
const repeat = Number(values.repeat ?? 1);
const workers = Number(values.workers ?? 2);
for (let r = 0; r < repeat; r++) {
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  const { pages, failures } = await once(phase, files, workers);
  const cpu = process.cpuUsage(cpu0);
  const seconds = (cpu.user + cpu.system) / 1e6;
  const wall = (performance.now() - wall0) / 1000;
  console.log(JSON.stringify({ phase, run: r + 1, pages, failures, cpuS: +seconds.toFixed(2), wallS: +wall.toFixed(2), pagesPerCpuS: +(pages / seconds).toFixed(1) }));
}
