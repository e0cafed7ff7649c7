import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { parsePage } from '../../../pipeline/markdown/index.ts';
import { openPdf } from '../../../pipeline/pdf/index.ts';
import { extractTextLayer } from '../../../pipeline/text-layer/index.ts';

// The Markdown parser reads most text-layer blocks on its fast path; both paths must agree on
// what the text layer writes (citations, escapes, lists, code, tables).
describe('text-layer Markdown through the parser', () => {
  it('should parse every page of the sample PDFs the same with and without the fast path', async function () {
    this.timeout(120_000);
    const dirs = ['../shared/data/docling-dev/pdf/', '../shared/data/olmocr-bench-dev/pdfs/'];
    let pages = 0;
    for (const dir of dirs) {
      for (const name of (await readdir(dir)).filter((n) => n.endsWith('.pdf') && !n.startsWith('password'))) {
        const pdf = await openPdf(await readFile(dir + name), { source: name });
        try {
          for await (const layer of extractTextLayer(pdf)) {
            const input = { markdown: layer.markdown, pageNumber: layer.pageNumber, width: layer.width, height: layer.height };
            assert.deepEqual(parsePage(input), parsePage(input, { fastPath: false }), `${name} page ${layer.pageNumber}`);
            pages++;
          }
        } finally {
          await pdf.close();
        }
      }
    }
    assert.ok(pages >= 15, `${pages} pages`);
  });
});
