import assert from 'node:assert/strict';
import { Embeddings } from '@langchain/core/embeddings';
import type { Embedder } from '../../../inference/embed/index.ts';
import { FolioEmbeddings } from '../../../retrieval/index.ts';

describe('FolioEmbeddings', () => {
  it('should be LangChain Embeddings backed by the local model', async () => {
    const embeddings = new FolioEmbeddings();
    try {
      assert.ok(embeddings instanceof Embeddings);
      const [a, b] = await embeddings.embedDocuments(['The typewriter was patented in 1868.', 'Elastic stop nuts resist vibration.']);
      const q = await embeddings.embedQuery('Who invented the typewriter?');
      assert.equal(q.length, 384);
      assert.ok(Array.isArray(a));
      const dot = (x: number[], y: number[]) => x.reduce((s, v, i) => s + v * y[i]!, 0);
      assert.ok(dot(q, a!) > dot(q, b!));
    } finally {
      await embeddings.close();
    }
  });

  it('should use a given embedder and leave it open', async () => {
    let closed = false;
    const embedder: Embedder = {
      model: 'fake',
      dims: 2,
      maxTokens: 8,
      countTokens: () => 1,
      embed: async (texts) => texts.map((t) => new Float32Array([t.length, 0])),
      close: async () => {
        closed = true;
      },
    };
    const embeddings = new FolioEmbeddings({ embedder });
    assert.deepEqual(await embeddings.embedDocuments(['abc']), [[3, 0]]);
    await embeddings.close();
    assert.equal(closed, false);
  });
});
