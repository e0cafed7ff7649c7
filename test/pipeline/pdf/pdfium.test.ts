import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { adoptPdfiumModule, compiledPdfium } from '../../../pipeline/pdf/index.ts';

const { WebAssembly: wasm } = globalThis as unknown as { WebAssembly: { Module: new (...args: never[]) => object } };

describe('compiledPdfium', () => {
  it('should compile PDFium once per thread', async () => {
    const first = await compiledPdfium();
    assert.ok(first instanceof wasm.Module);
    assert.equal(await compiledPdfium(), first);
    // This thread has its own already: a module from elsewhere is not taken.
    adoptPdfiumModule({});
    assert.equal(await compiledPdfium(), first);
  });

  it('should let a worker read PDFs with a module posted to it', async () => {
    const module = await compiledPdfium();
    const entry = new URL('../../../pipeline/pdf/index.ts', import.meta.url).href;
    // The worker adopts the module, then opens a PDF: its PDFium is instantiated from that module.
    const source = `
      const { workerData, parentPort } = await import('node:worker_threads');
      const { readFile } = await import('node:fs/promises');
      const { adoptPdfiumModule, compiledPdfium, openPdf } = await import(${JSON.stringify(entry)});
      adoptPdfiumModule(workerData.module);
      const same = (await compiledPdfium()) === workerData.module;
      const pdf = await openPdf(new Uint8Array(await readFile('../shared/data/docling-dev/pdf/2305.03393v1-pg9.pdf')), { source: 'pg9.pdf' });
      const width = pdf.readPage(1, (page) => Math.round(page.width));
      await pdf.close();
      parentPort.postMessage({ same, width });
    `;
    const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`), { workerData: { module } });
    const answer = await new Promise<{ same: boolean; width: number }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    assert.deepEqual(answer, { same: true, width: 612 });
  });
});
