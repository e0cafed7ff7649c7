import assert from 'node:assert/strict';
import { chunkToDocument, documentRecord, documentRecordId, failureId, failureToDocument } from '../../../pipeline/sink/index.ts';
import { makeChunk } from '../../support/chunks.ts';

describe('chunkToDocument', () => {
  it("should map every chunk field to the mapping's snake_case name", () => {
    const chunk = makeChunk({ docId: 'd', index: 2, vector: new Float32Array([0.5, 1]) as unknown as number[] });
    const doc = chunkToDocument(chunk, { ingestedAt: '2026-01-01T00:00:00.000Z' });
    assert.deepEqual(doc, {
      id: chunk.id,
      doc_id: 'd',
      source: 'file:///data/d.pdf',
      title: 'Report d',
      text: chunk.text,
      vector: [0.5, 1],
      heading_path: ['Results', 'Table 2'],
      pages: [3],
      kind: ['heading', 'table', 'formula'],
      table: { html: chunk.table!.html, rows_text: ['Unit: A; Growth: 3%'], header: ['Unit', 'Growth'] },
      formulas: [{ latex: 'E = mc^2', valid: true }],
      bboxes: [{ page: 3, bbox: [10, 20, 300, 400] }],
      lines: { from: 21, to: 29 },
      content_hash: 'hash-d',
      ingested_at: '2026-01-01T00:00:00.000Z',
      engine: 'text',
      quality: { score: 0.93, passed: true, reasons: [] },
      chunk_index: 2,
      tokens: 24,
    });
    assert.deepEqual(JSON.parse(JSON.stringify(doc)).vector, [0.5, 1]);
  });

  it('should write vectors with float32 precision, no more', () => {
    const values = new Float32Array([0.1, -1 / 3, 123.456, 1e-8]);
    const doc = chunkToDocument(makeChunk({ vector: Array.from(values) }));
    assert.deepEqual(Float32Array.from(doc.vector ?? []), values);
    assert.ok(JSON.stringify(doc.vector).length < JSON.stringify(Array.from(values)).length);
  });

  it('should leave optional parts out rather than null', () => {
    const { vector: _v, table: _t, formulas: _f, quality: _q, lines: _l, title: _ti, ...bare } = makeChunk();
    const doc = chunkToDocument(bare);
    for (const key of ['vector', 'table', 'formulas', 'quality', 'lines', 'title']) assert.ok(!(key in doc), key);
  });
});

describe('documentRecord', () => {
  it('should turn an indexed document with failed chunks into a failed record', () => {
    const mark = { docId: 'd', source: 's', contentHash: 'h', pages: 2, chunks: 3, status: 'indexed' as const };
    assert.equal(documentRecord(mark, { index: 'i' }).status, 'indexed');
    const failed = documentRecord(mark, { index: 'i', failedChunks: 1, reason: '1 of 3 chunks not indexed' });
    assert.equal(failed.status, 'failed');
    assert.equal(failed.reason, '1 of 3 chunks not indexed');
    assert.equal(failed.failed_chunks, 1);
  });
});

describe('documentRecordId', () => {
  it('should differ per chunk index for the same document', () => {
    assert.notEqual(documentRecordId('a', 'd'), documentRecordId('b', 'd'));
    assert.equal(documentRecordId('a', 'd'), documentRecordId('a', 'd'));
  });
});

describe('failureToDocument', () => {
  it('should map a failure record and give reruns the same id', () => {
    const record = { source: 's', docId: 'd', pageNumber: 3, stage: 'ocr', code: 'C', reason: 'r', at: 't' };
    assert.deepEqual(failureToDocument(record, 'i'), { index: 'i', source: 's', doc_id: 'd', page_number: 3, stage: 'ocr', code: 'C', reason: 'r', at: 't' });
    assert.equal(failureId(record, 'i'), failureId({ ...record, at: 'later', reason: 'other words' }, 'i'));
    assert.notEqual(failureId(record, 'i'), failureId({ ...record, pageNumber: 4 }, 'i'));
  });
});
