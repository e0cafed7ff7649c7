import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { adoptPdfiumModule, compiledPdfium, configurePdfium, loadPdfium, openPdf, PDFIUM_RECYCLE_BYTES } from '../../../pipeline/pdf/index.ts';

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

describe('configurePdfium (recycling a grown instance)', () => {
  after(() => configurePdfium({}));

  it('should let go of an instance past the recycle size once no document is open, and keep it while one is', async () => {
    const bytes = await readFile('examples/docs/folio-handbook.pdf');
    configurePdfium({ recycleBytes: 0 });
    const first = await openPdf(bytes, { source: 'a.pdf' });
    const second = await openPdf(bytes, { source: 'b.pdf' });
    const instance = await loadPdfium();
    await first.close();
    assert.equal(await loadPdfium(), instance, 'a document is still open on it');
    await second.close();
    await Promise.resolve();
    const fresh = await loadPdfium();
    assert.notEqual(fresh, instance, 'a new instance once none is open');
    // The old one was only uncached: a document on the new one reads as before.
    const again = await openPdf(bytes, { source: 'c.pdf' });
    assert.ok(again.numPages > 0);
    await again.close();
    configurePdfium({ recycleBytes: PDFIUM_RECYCLE_BYTES });
    const kept = await loadPdfium();
    const small = await openPdf(bytes, { source: 'd.pdf' });
    await small.close();
    await Promise.resolve();
    assert.equal(await loadPdfium(), kept, 'under the default size the instance stays');
    assert.throws(() => configurePdfium({ recycleBytes: -1 }), /Expected `recycleBytes` to be an integer from 0 up, got `-1`/);
  });
});
