import assert from 'node:assert/strict';
import { BaseRetriever } from '@langchain/core/retrievers';
import { FolioEmbeddings, FolioRetriever } from '../../../retrieval/index.ts';
import { esClient, throwawayIndex } from '../../support/index.ts';
import { indexFixture } from '../fixtures.ts';

describe('FolioRetriever', () => {
  const index = throwawayIndex('folio-test-retriever');
  const embeddings = new FolioEmbeddings();
  after(async () => {
    await embeddings.close();
  });
  beforeEach(async () => {
    await indexFixture(esClient(), index.name, await embeddings.embedder());
  });

  it('should be a LangChain retriever returning cited Documents', async () => {
    const retriever = new FolioRetriever({ client: esClient(), index: index.name, k: 2, embeddings });
    assert.ok(retriever instanceof BaseRetriever);
    const docs = await retriever.invoke('Which nut does not loosen when it vibrates?');
    assert.equal(docs.length, 2);
    assert.equal(docs[0]!.id, 'nuts');
    assert.equal(docs[0]!.metadata.source, 'amt.pdf');
    assert.equal(docs[0]!.metadata.loc.pageNumber, 1);
    assert.deepEqual(docs[0]!.metadata.folio.headingPath, ['Self-Locking Nuts']);
    assert.ok(docs[0]!.metadata.folio.score! > 0);
  });

  it('should pass filters and mode through', async () => {
    const retriever = new FolioRetriever({ client: esClient(), index: index.name, k: 5, mode: 'bm25', filters: { kind: 'table' }, embeddings });
    const docs = await retriever.invoke('OTSL HTML inference time');
    assert.deepEqual(
      docs.map((d) => d.id),
      ['table'],
    );
    assert.deepEqual(docs[0]!.metadata.folio.ranks, { bm25: 1 });
  });
});
