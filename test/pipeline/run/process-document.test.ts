import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { sha256, stableId } from '../../../core/hash.ts';
import type { SourceDocument } from '../../../core/types.ts';
import { processDocument } from '../../../pipeline/run/index.ts';
import { firstReasons } from '../../../pipeline/run/process-document.ts';

async function load(path: string, mime: string): Promise<SourceDocument> {
  const bytes = new Uint8Array(await readFile(path));
  const uri = pathToFileURL(path).href;
  return { id: stableId(uri), uri, relativePath: path.split('/').pop()!, mime, bytes, contentHash: sha256(bytes) };
}

describe('processDocument', () => {
  it('should read a born-digital PDF through its text layer into headed, boxed chunks', async () => {
    const doc = await load('examples/docs/folio-handbook.pdf', 'application/pdf');
    const result = await processDocument(doc, { engine: 'text' });
    assert.equal(result.ok, true);
    assert.deepEqual(result.failures, []);
    assert.deepEqual(
      result.pages.map((p) => p.pageNumber),
      [1, 2, 3],
    );
    assert.ok(result.pages.every((p) => p.engine === 'text'));
    const headings = result.elements.filter((e) => e.kind === 'heading').map((e) => e.text);
    assert.ok(headings.includes('Folio Handbook'), `headings: ${headings.join(' | ')}`);
    assert.ok(
      headings.some((h) => h.includes('Speculative decoding')),
      `headings: ${headings.join(' | ')}`,
    );
    assert.ok(result.chunks.length >= 3);
    for (const chunk of result.chunks) {
      assert.ok(chunk.pages.length > 0 && chunk.pages.every((p) => p >= 1 && p <= 3));
      assert.equal(chunk.docId, doc.id);
      assert.equal(chunk.contentHash, doc.contentHash);
    }
    assert.ok(
      result.chunks.some((c) => c.bboxes.length > 0),
      'text-layer chunks carry boxes',
    );
    // Page headers and footers are marked, not mixed into the body Markdown.
    assert.ok(!/Page 2/.test(result.markdown), 'footer text left in the Markdown');
    assert.match(result.markdown, /Speculative decoding/);
  });

  it('should parse OCR Markdown with grounding tags, a spanning table and a formula', async () => {
    const doc = await load('examples/docs/invoice-ocr.md', 'text/markdown');
    const result = await processDocument(doc);
    assert.equal(result.ok, true);
    assert.equal(result.pages.length, 2);
    const table = result.elements.find((e) => e.kind === 'table');
    assert.ok(table?.table, 'a table element');
    assert.ok(table.table.rowsText.some((row) => row.includes('Northwind Paper')));
    assert.ok(table.bbox, 'the table keeps its grounding box');
    assert.doesNotMatch(result.markdown, /<\|ref\|>/);
    const formula = result.elements.find((e) => e.kind === 'formula');
    assert.equal(formula?.formulas?.[0]?.valid, true);
  });

  it('should record an unsupported document as a failure instead of throwing', async () => {
    const bytes = new TextEncoder().encode('PK\u0003\u0004 not a document Folio reads');
    const doc: SourceDocument = {
      id: 'x',
      uri: 'file:///tmp/archive.zip',
      relativePath: 'archive.zip',
      mime: 'application/zip',
      bytes,
      contentHash: sha256(bytes),
    };
    const result = await processDocument(doc);
    assert.equal(result.ok, false);
    assert.equal(result.failures[0]?.code, 'FOLIO_UNSUPPORTED_TYPE');
    assert.match(result.failures[0]!.reason, /archive\.zip/);
  });

  it('should name the password problem of an encrypted PDF and read it with the password', async () => {
    const doc = await load('../shared/data/docling-dev/pdf/password_protected_2206.01062_pg3.pdf', 'application/pdf');
    const locked = await processDocument(doc, { engine: 'text' });
    assert.equal(locked.ok, false);
    assert.equal(locked.failures[0]?.code, 'FOLIO_PDF_PASSWORD');
    assert.match(locked.failures[0]!.reason, /password/i);
    const open = await processDocument(doc, { engine: 'text', password: '1234' });
    assert.equal(open.ok, true);
    assert.ok(open.chunks.length > 0);
  });
});

describe('firstReasons', () => {
  it('should list the first reasons and count the rest', () => {
    const reasons = Array.from({ length: 150 }, (_, i) => `repetition loop: "L" ×${i + 40}`);
    assert.equal(firstReasons(reasons), 'repetition loop: "L" ×40; repetition loop: "L" ×41; repetition loop: "L" ×42; and 147 more');
    assert.equal(firstReasons(['a', 'b']), 'a; b');
    assert.equal(firstReasons(['a', 'b', 'c']), 'a; b; c');
  });
});
