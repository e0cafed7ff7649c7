import assert from 'node:assert/strict';
import { bm25Body, filterClauses, knnBody } from '../../retrieval/index.ts';

describe('filterClauses', () => {
  it('should be empty without filters', () => {
    assert.deepEqual(filterClauses(), []);
    assert.deepEqual(filterClauses({ source: undefined, kind: undefined }), []);
  });

  it('should map source, kind, docId and pages to term-level queries', () => {
    assert.deepEqual(filterClauses({ source: 'a.pdf', kind: ['table', 'formula'], docId: 'd1', pages: 3 }), [
      { terms: { source: ['a.pdf'] } },
      { terms: { kind: ['table', 'formula'] } },
      { terms: { doc_id: ['d1'] } },
      { term: { pages: 3 } },
    ]);
    assert.deepEqual(filterClauses({ pages: [1, 2] }), [{ terms: { pages: [1, 2] } }]);
    assert.deepEqual(filterClauses({ pages: { from: 2, to: 4 } }), [{ range: { pages: { gte: 2, lte: 4 } } }]);
  });

  it('should refuse an empty page range', () => {
    assert.throws(() => filterClauses({ pages: {} }), /filters\.pages/);
  });
});

describe('bm25Body', () => {
  it('should put filters in bool.filter so they do not change scores', () => {
    const body = bm25Body({ query: 'tables', size: 7, filters: { kind: 'table' } }) as {
      size: number;
      query: { bool: { must: unknown[]; filter: unknown[] } };
    };
    assert.equal(body.size, 7);
    assert.deepEqual(body.query.bool.must, [{ multi_match: { query: 'tables', fields: ['text'] } }]);
    assert.deepEqual(body.query.bool.filter, [{ terms: { kind: ['table'] } }]);
  });
});

describe('bm25Body with Lucene syntax', () => {
  it('should send the query as a query_string over the same fields, and plain words as multi_match', () => {
    const lucene = bm25Body({ query: 'kind:table AND "stop nut"', size: 5, fields: ['text', 'title^2'], syntax: 'lucene' }) as {
      query: { bool: { must: unknown[] } };
    };
    assert.deepEqual(lucene.query.bool.must, [{ query_string: { query: 'kind:table AND "stop nut"', fields: ['text', 'title^2'] } }]);
    const plain = bm25Body({ query: 'kind:table AND', size: 5 }) as { query: { bool: { must: unknown[] } } };
    assert.deepEqual(plain.query.bool.must, [{ multi_match: { query: 'kind:table AND', fields: ['text'] } }]);
  });
});

describe('knnBody', () => {
  it('should search the vector field with k, candidates and the same filters', () => {
    const body = knnBody({ vector: new Float32Array([0.5, 0.25]), size: 5, numCandidates: 50, filters: { source: 's' } }) as {
      knn: Record<string, unknown>;
      _source: string[];
    };
    assert.deepEqual(body.knn, { field: 'vector', query_vector: [0.5, 0.25], k: 5, num_candidates: 50, filter: [{ terms: { source: ['s'] } }] });
    assert.ok(!body._source.includes('vector'));
  });
});
