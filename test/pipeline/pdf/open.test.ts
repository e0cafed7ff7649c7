import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { SourceError } from '../../../core/errors.ts';
import { openPdf, PDFIUM_RELOAD_PAGES } from '../../../pipeline/pdf/index.ts';
import { readPageText } from '../../../pipeline/text-layer/index.ts';
import { makePdf, paragraph } from '../text-layer/make-pdf.ts';

const DOCLING = '../shared/data/docling-dev/pdf/';
const PAPER = `${DOCLING}2305.03393v1-pg9.pdf`;
const LOCKED = `${DOCLING}password_protected_2206.01062_pg3.pdf`;

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof SourceError, `expected a SourceError, got ${String(error)}`);
    return error.code;
  }
  return 'opened';
}

describe('openPdf', () => {
  it("reloads PDFium's document every reloadEvery pages, so its caches do not grow with the document, and reads the same text", async () => {
    const bytes = makePdf(
      Array.from({ length: 7 }, (_, i) => ({ texts: paragraph([`Page ${i + 1} opens with a line`, `and closes with line ${i + 1}.`], 72, 100) })),
    );
    const read = async (reloadEvery: number): Promise<{ texts: string[]; reloads: number }> => {
      const pdf = await openPdf(bytes, { source: 'seven.pdf', reloadEvery });
      try {
        const texts = [];
        for (let n = 1; n <= pdf.numPages; n++)
          texts.push(
            pdf.readPage(n, (page) =>
              readPageText(page)
                .runs.map((run) => run.text)
                .join(' '),
            ),
          );
        // A page read for rendering counts too.
        await (await pdf.page(7)).read((page) => page.width);
        return { texts, reloads: pdf.reloads };
      } finally {
        await pdf.close();
      }
    };
    const kept = await read(0);
    const reloaded = await read(2);
    assert.equal(kept.reloads, 0);
    // 9 page loads (`page()` loads once for the size, `read` again), 2 per opening: loaded again before the 3rd, 5th, 7th and 9th.
    assert.equal(reloaded.reloads, 4);
    assert.deepEqual(reloaded.texts, kept.texts);
    assert.match(kept.texts[6] ?? '', /Page 7 opens/);
    assert.ok(PDFIUM_RELOAD_PAGES > 0);
    await assert.rejects(openPdf(bytes, { source: 'seven.pdf', reloadEvery: -1 }), /Expected `reloadEvery` to be an integer from 0 up, got `-1`/);
  });

  it('opens a PDF, hands out pages and closes twice safely', async () => {
    const bytes = new Uint8Array(await readFile(PAPER));
    const pdf = await openPdf(bytes, { source: PAPER });
    try {
      assert.equal(pdf.numPages, 1);
      const page = await pdf.page(1);
      assert.deepEqual(page.view, [0, 0, 612, 792]);
      // pdfjs detaches what it is given: the caller's bytes must survive.
      assert.equal(bytes.byteLength > 0 && bytes[0], 0x25);
    } finally {
      await pdf.close();
      await pdf.close();
    }
  });

  it('names the document and the page when the page does not exist', async () => {
    const pdf = await openPdf(await readFile(PAPER), { source: 'paper.pdf' });
    try {
      await assert.rejects(pdf.page(2), (error: SourceError) => error.code === 'FOLIO_PDF_PAGE_RANGE' && /paper\.pdf: page 2/.test(error.message));
    } finally {
      await pdf.close();
    }
  });

  it('refuses an empty file', async () => {
    assert.equal(await codeOf(openPdf(new Uint8Array(0), { source: 'empty.pdf' })), 'FOLIO_EMPTY_FILE');
  });

  it('refuses a truncated PDF and a non-PDF', async () => {
    const bytes = await readFile(PAPER);
    assert.equal(await codeOf(openPdf(bytes.subarray(0, bytes.length >> 1), { source: 'half.pdf' })), 'FOLIO_PDF_CORRUPT');
    const html = new TextEncoder().encode('<html><body>Not found</body></html>');
    await assert.rejects(openPdf(html, { source: 'page.pdf' }), /page\.pdf: not a readable PDF/);
  });

  it('needs the password of an encrypted PDF', async () => {
    const bytes = await readFile(LOCKED);
    await assert.rejects(
      openPdf(bytes, { source: 'locked.pdf' }),
      (error: SourceError) => error.code === 'FOLIO_PDF_PASSWORD' && /locked\.pdf.*--password/.test(error.message),
    );
    assert.equal(await codeOf(openPdf(bytes, { source: 'locked.pdf', password: 'wrong' })), 'FOLIO_PDF_BAD_PASSWORD');
    const pdf = await openPdf(bytes, { source: 'locked.pdf', password: '1234' });
    try {
      const chars = pdf.readPage(1, (page) => page.pdfium.lib.FPDFText_CountChars(page.textPage()));
      assert.ok(chars > 10, `${chars} characters`);
    } finally {
      await pdf.close();
    }
  });

  it('reads pages in PDFium at their displayed size, /Rotate applied', async () => {
    const texts = paragraph(['A line of text'], 72, 100);
    const bytes = makePdf([{ texts }, { texts, rotate: 90, width: 792, height: 612 }, { texts, rotate: 270, width: 300, height: 500 }]);
    const pdf = await openPdf(bytes, { source: 'rotated.pdf' });
    try {
      const sizes = [1, 2, 3].map((n) => pdf.readPage(n, (page) => [page.width, page.height]));
      assert.deepEqual(sizes, [
        [612, 792],
        [792, 612],
        [300, 500],
      ]);
      // Sized without loading the pages (the web app's outline of a long document), the same.
      assert.deepEqual(
        [1, 2, 3].map((n) => {
          const size = pdf.pageSize(n);
          return size && [size.width, size.height];
        }),
        sizes,
      );
      assert.equal(pdf.pageSize(4), undefined);
      // The page handed to the renderer agrees.
      const page = await pdf.page(2);
      assert.deepEqual([page.width, page.height, page.pageNumber], [792, 612, 2]);
      assert.throws(
        () => pdf.readPage(4, () => 0),
        (error: SourceError) => error.code === 'FOLIO_PDF_PAGE_RANGE' && /rotated\.pdf: page 4/.test(error.message),
      );
    } finally {
      await pdf.close();
    }
  });

  it('names the document and the page when PDFium cannot load a page', async () => {
    const bytes = makePdf([1, 2].map((n) => ({ texts: paragraph([`Page ${n}`], 72, 100) })));
    // Page 2 points at an object that does not exist.
    const broken = new Uint8Array(Buffer.from(Buffer.from(bytes).toString('latin1').replace('/Kids [5 0 R 7 0 R]', '/Kids [5 0 R 99 0 R]'), 'latin1'));
    const pdf = await openPdf(broken, { source: 'broken.pdf' });
    try {
      assert.equal(
        pdf.readPage(1, (page) => page.width),
        612,
      );
      assert.throws(
        () => pdf.readPage(2, () => 0),
        (error: SourceError) => error.code === 'FOLIO_PDF_CORRUPT' && /^broken\.pdf: page 2/.test(error.message),
      );
    } finally {
      await pdf.close();
    }
  });

  it('reads an encrypted PDF in PDFium once the password is given', async () => {
    const pdf = await openPdf(await readFile(LOCKED), { source: 'locked.pdf', password: '1234' });
    try {
      assert.equal(pdf.numPages, 1);
      assert.ok(pdf.readPage(1, (page) => page.pdfium.lib.FPDFText_CountChars(page.textPage())) > 1000);
    } finally {
      await pdf.close();
    }
  });

  it('validates its options', async () => {
    await assert.rejects(openPdf(new Uint8Array(1), { source: '' }), /`source`/);
  });

  it('opens every sample PDF or fails with a clear code, and never hangs', async function () {
    this.timeout(120_000);
    const dirs = ['../shared/data/gnarly/', DOCLING, '../shared/data/olmocr-bench-dev/pdfs/'];
    const outcomes = new Map<string, string>();
    for (const dir of dirs) {
      for (const name of (await readdir(dir)).filter((n) => n.endsWith('.pdf'))) {
        let outcome: string;
        try {
          const pdf = await openPdf(await readFile(dir + name), { source: name });
          try {
            await pdf.page(1);
            outcome = 'opened';
          } finally {
            await pdf.close();
          }
        } catch (error) {
          assert.ok(error instanceof SourceError, `${name}: ${String(error)}`);
          assert.match(error.code, /^FOLIO_/);
          assert.ok(error.message.startsWith(name), error.message);
          outcome = error.code;
        }
        outcomes.set(name, outcome);
      }
    }
    assert.ok(outcomes.size >= 30);
    assert.equal(outcomes.get('password_protected_2206.01062_pg3.pdf'), 'FOLIO_PDF_PASSWORD');
    assert.deepEqual(
      [...outcomes].filter(([, o]) => o !== 'opened' && o !== 'FOLIO_PDF_PASSWORD'),
      [],
    );
  });
});
