import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Embedder, EmbeddingTokenizer } from '../../../inference/embed/index.ts';
import { createLocalEmbedder, DEFAULT_MODEL_DIR, loadEmbeddingTokenizer, planBatches } from '../../../inference/embed/index.ts';

interface Reference {
  sentences: { text: string; ids: number[]; vector: number[] }[];
  longIdsHeadTail: [number[], number[], number];
}
// Written by PyTorch + transformers from the original weights (see inference/embed/convert/).
const reference = JSON.parse(readFileSync(new URL('./fixtures/reference.json', import.meta.url), 'utf8')) as Reference;

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

describe('loadEmbeddingTokenizer', () => {
  let tokenizer: EmbeddingTokenizer;
  before(async () => {
    tokenizer = await loadEmbeddingTokenizer(DEFAULT_MODEL_DIR, 256);
  });

  it('should produce the exact token ids of the Python tokenizer', () => {
    for (const { text, ids } of reference.sentences) assert.deepEqual(tokenizer.encode(text), ids, text);
  });

  it('should truncate to maxTokens keeping [CLS] and [SEP], as the Python tokenizer does', () => {
    const ids = tokenizer.encode('word '.repeat(400));
    const [head, tail, length] = reference.longIdsHeadTail;
    assert.equal(ids.length, length);
    assert.deepEqual(ids.slice(0, 3), head);
    assert.deepEqual(ids.slice(-3), tail);
    assert.equal(tokenizer.count('word '.repeat(400)), 402);
  });

  it('should give the same ids for a text it counted before (kept from the count)', () => {
    // Long enough to be kept, and past maxTokens: the kept ids are truncated when encoded.
    const text = 'word '.repeat(400);
    const fresh = tokenizer.encode(text);
    assert.equal(tokenizer.count(text), 402);
    assert.deepEqual(tokenizer.encode(text), fresh);
    assert.equal(fresh.length, 256);
  });

  it('should pad a batch to its longest row with a zero mask', () => {
    const batch = tokenizer.batch(['a b c d', 'a']);
    assert.equal(batch.rows, 2);
    assert.equal(batch.length, 6);
    assert.deepEqual(Array.from(batch.attentionMask), [1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0].map(BigInt));
    assert.deepEqual(Array.from(batch.inputIds.slice(9)), [0n, 0n, 0n]);
  });
});

describe('planBatches', () => {
  it('should put the longest texts first and cap each pass by padded tokens and by rows', () => {
    assert.deepEqual(planBatches({ lengths: [10, 200, 12, 11], batchTokens: 256, batchSize: 32 }), [[1], [2, 3, 0]]);
    assert.deepEqual(planBatches({ lengths: [10, 10, 10], batchTokens: 1000, batchSize: 2 }), [[0, 1], [2]]);
  });

  it('should give a text longer than the budget a pass of its own', () => {
    assert.deepEqual(planBatches({ lengths: [300, 300], batchTokens: 256, batchSize: 32 }), [[0], [1]]);
    assert.deepEqual(planBatches({ lengths: [], batchTokens: 256, batchSize: 32 }), []);
  });
});

describe('createLocalEmbedder', () => {
  let embedder: Embedder;
  before(async () => {
    embedder = await createLocalEmbedder({ batchSize: 2 });
  });
  after(async () => {
    await embedder?.close();
  });

  it('should describe the bundled model', () => {
    assert.equal(embedder.model, 'all-minilm-l6-v2');
    assert.equal(embedder.dims, 384);
    assert.equal(embedder.maxTokens, 256);
  });

  it('should agree with the PyTorch model on each sentence', async () => {
    const vectors = await embedder.embed(reference.sentences.map((s) => s.text));
    vectors.forEach((vector, i) => {
      assert.equal(vector.length, 384);
      assert.ok(Math.abs(dot(vector, vector) - 1) < 1e-4, 'unit length');
      const cosine = dot(vector, reference.sentences[i]!.vector);
      assert.ok(cosine > 0.97, `cosine to PyTorch for sentence ${i} is ${cosine}`);
    });
  });

  it('should give nearly the same vector whatever else shares the batch (padding masked out)', async () => {
    const text = reference.sentences[1]!.text;
    const [alone] = await embedder.embed([text]);
    const mixed = await embedder.embed(['a much longer neighbour that forces padding of the short text '.repeat(5), text, 'x']);
    // Not 1: dynamic int8 quantises activations with one scale per batch tensor, so batch mates
    // move a vector by ~0.01. Averaging over the padding instead would drop this well below 0.9.
    const cosine = dot(alone!, mixed[1]!);
    assert.ok(cosine > 0.98, `cosine ${cosine}`);
  });

  it('should keep input order and rank a paraphrase above an unrelated text', async () => {
    const [query, near, far] = await embedder.embed(['Who invented the typewriter?', reference.sentences[0]!.text, reference.sentences[2]!.text]);
    assert.ok(dot(query!, near!) > dot(query!, far!) + 0.2);
  });

  it('should embed texts longer than the model reads', async () => {
    const [v] = await embedder.embed(['tables '.repeat(1000)]);
    assert.equal(v!.length, 384);
    assert.ok(embedder.countTokens('tables '.repeat(1000)) > embedder.maxTokens);
  });

  it('should return nothing for nothing and stop on an aborted signal', async () => {
    assert.deepEqual(await embedder.embed([]), []);
    await assert.rejects(embedder.embed(['a'], { signal: AbortSignal.abort() }), /abort/i);
  });

  it('should give the same vectors on a worker thread of its own, and the batches it ran', async () => {
    const texts = reference.sentences.map((s) => s.text);
    const inThread = await embedder.embed(texts);
    const seen: number[] = [];
    const other = await createLocalEmbedder({ batchSize: 2, worker: true, onBatch: (b) => seen.push(b.rows) });
    try {
      for (const text of texts) other.countTokens(text);
      const vectors = await other.embed(texts);
      vectors.forEach((vector, i) => assert.ok(dot(vector, inThread[i]!) > 0.9999, `sentence ${i}`));
      assert.equal(
        seen.reduce((a, b) => a + b, 0),
        texts.length,
      );
      await assert.rejects(other.embed(['a'], { signal: AbortSignal.abort() }), /abort/i);
    } finally {
      await other.close();
    }
    await assert.rejects(other.embed(['a']), /closed/);
  });

  it('should report a model that cannot load from the worker thread too', async () => {
    await assert.rejects(createLocalEmbedder({ modelDir: '/nonexistent', worker: true }), /`modelDir`.*folio-embed\.json/);
  });

  it('should name a bad option', async () => {
    await assert.rejects(createLocalEmbedder({ batchSize: 0 }), /`batchSize`.*`0`/);
    await assert.rejects(createLocalEmbedder({ batchTokens: 0.5 }), /`batchTokens`.*`0.5`/);
    await assert.rejects(createLocalEmbedder({ modelDir: '/nonexistent' }), /`modelDir`.*folio-embed\.json/);
  });

  it('should refuse to embed once closed', async () => {
    const other = await createLocalEmbedder();
    await other.close();
    await assert.rejects(other.embed(['a']), /closed/);
  });
});
