import assert from 'node:assert/strict';
import { ask, hybridSearch } from '../../retrieval/index.ts';
import { esClient } from '../support/index.ts';
import { indexedFixture } from './fixtures.ts';

describe('hybridSearch', () => {
  const fixture = indexedFixture('folio-test-search');

  it('should find the chunk by its words with BM25', async () => {
    const hits = await hybridSearch({ client: esClient(), index: fixture.index, query: 'Sholes typewriter 1868', mode: 'bm25', k: 3 });
    assert.equal(hits[0]!.id, 'typewriter');
    assert.deepEqual(hits[0]!.ranks, { bm25: 1 });
  });

  it('should find a paraphrase with kNN where the words differ', async () => {
    const hits = await hybridSearch({
      client: esClient(),
      index: fixture.index,
      query: 'collaborating on a shared document simultaneously online',
      mode: 'knn',
      k: 2,
      embedder: fixture.embedder,
    });
    assert.equal(hits[0]!.id, 'docs');
  });

  it('should fuse both lists and carry provenance', async () => {
    const hits = await hybridSearch({ client: esClient(), index: fixture.index, query: 'Who invented the typewriter?', k: 3, embedder: fixture.embedder });
    const top = hits[0]!;
    assert.equal(top.id, 'typewriter');
    assert.equal(top.ranks.knn, 1);
    assert.ok(top.ranks.bm25 !== undefined);
    assert.ok(Math.abs(top.score - (1 / (60 + top.ranks.bm25) + 1 / 61)) < 1e-9);
    assert.equal(top.source, 'history.pdf');
    assert.equal(top.docId, 'd1');
    assert.deepEqual(top.pages, [1]);
    assert.deepEqual(top.headingPath, ['The Evolution of the Word Processor', 'Pre-Digital Era']);
    assert.deepEqual(top.bboxes, [{ page: 1, bbox: [72, 100, 540, 180] }]);
    assert.deepEqual(top.kind, ['paragraph']);
    assert.equal(top.chunkIndex, 0);
  });

  it('should apply source, kind and page filters to both lists', async () => {
    const c = esClient();
    const q = { client: c, index: fixture.index, query: 'typewriter formatting table nut', k: 10, embedder: fixture.embedder };
    assert.deepEqual(
      (await hybridSearch({ ...q, filters: { kind: 'table' } })).map((h) => h.id),
      ['table'],
    );
    assert.deepEqual(new Set((await hybridSearch({ ...q, filters: { source: ['amt.pdf', 'otsl.pdf'] } })).map((h) => h.id)), new Set(['nuts', 'table']));
    assert.deepEqual(
      new Set((await hybridSearch({ ...q, filters: { source: 'history.pdf', pages: { from: 2, to: 3 } } })).map((h) => h.id)),
      new Set(['docs', 'latex']),
    );
  });

  it("should give each list's own score beside the fused one", async () => {
    const hits = await hybridSearch({ client: esClient(), index: fixture.index, query: 'Who invented the typewriter?', k: 3, embedder: fixture.embedder });
    const top = hits[0]!;
    assert.ok(top.scores?.bm25 !== undefined && top.scores.bm25 > 0, 'BM25 score');
    assert.ok(top.scores?.knn !== undefined && top.scores.knn > 0 && top.scores.knn <= 1, 'kNN similarity');
    const bm25 = await hybridSearch({ client: esClient(), index: fixture.index, query: 'Who invented the typewriter?', k: 3, mode: 'bm25' });
    assert.equal(bm25.find((h) => h.id === top.id)?.score, top.scores.bm25, "the BM25 part is the BM25 list's score");
  });

  it("should read Lucene syntax when asked, and reject a syntax error with Elasticsearch's reason", async () => {
    const hits = await hybridSearch({ client: esClient(), index: fixture.index, query: 'typewriter AND NOT sholes', mode: 'bm25', syntax: 'lucene' });
    assert.deepEqual(
      hits.map((h) => h.id),
      [],
    );
    const plain = await hybridSearch({ client: esClient(), index: fixture.index, query: 'typewriter AND NOT sholes', mode: 'bm25' });
    assert.equal(plain[0]?.id, 'typewriter');
    await assert.rejects(
      hybridSearch({ client: esClient(), index: fixture.index, query: 'text:(typewriter AND', mode: 'bm25', syntax: 'lucene' }),
      (error: Error & { meta?: { status?: number } }) => {
        assert.match(error.message, /bm25 search on index .* failed: Failed to parse query/);
        assert.equal(error.meta?.status, 400);
        return true;
      },
    );
  });

  it('should say which index failed', async () => {
    await assert.rejects(
      hybridSearch({ client: esClient(), index: `${fixture.index}-missing`, query: 'x', mode: 'bm25' }),
      /bm25 search on index `folio-test-search-.*-missing`/,
    );
  });

  it('should name a bad option', async () => {
    await assert.rejects(hybridSearch({ client: esClient(), query: ' ' }), /`query`/);
    await assert.rejects(hybridSearch({ client: esClient(), query: 'x', k: 0 }), /`k`/);
    await assert.rejects(hybridSearch({ client: esClient(), query: 'x', mode: 'fuzzy' as never }), /`mode`/);
  });
});

describe('ask', () => {
  const fixture = indexedFixture('folio-test-ask');

  it('should return a cited context block without an LLM', async () => {
    const result = await ask({ client: esClient(), index: fixture.index, query: 'What keeps a stop nut tight?', k: 2, embedder: fixture.embedder });
    assert.equal(result.answer, undefined);
    assert.match(result.context, /^\[1\] amt\.pdf, p\. 1 › Self-Locking Nuts\nThe elastic stop nut/);
    assert.match(result.context, /\n\n\[2\] /);
  });

  it('should send the context to an OpenAI-compatible chat endpoint', async () => {
    let sent: { model: string; messages: { role: string; content: string }[] } | undefined;
    const fetch: typeof globalThis.fetch = async (_url, init) => {
      sent = JSON.parse(String(init?.body));
      return new Response(JSON.stringify({ choices: [{ message: { content: ' A fiber collar [1]. ' } }] }), { status: 200 });
    };
    const result = await ask({
      client: esClient(),
      index: fixture.index,
      query: 'What keeps a stop nut tight?',
      k: 2,
      embedder: fixture.embedder,
      llm: { url: 'http://127.0.0.1:1/v1', model: 'local-llm', fetch },
    });
    assert.equal(result.answer, 'A fiber collar [1].');
    assert.equal(sent?.model, 'local-llm');
    assert.ok(sent?.messages[1]?.content.includes(result.context));
  });
});
