import assert from 'node:assert/strict';
import { deleteIndices, esClient, esUrl, uniqueIndexName } from '../support/elasticsearch.ts';
import { runFolio } from './run-folio.ts';

interface Hit {
  source: string;
  pages: number[];
  headingPath: string[];
  text: string;
}

describe('folio ingest → Elasticsearch → folio search (end to end)', function () {
  this.timeout(300_000);
  let index: string;
  before(function () {
    esUrl(this);
    index = uniqueIndexName('folio-e2e');
  });
  after(async () => {
    if (index) await deleteIndices(index);
  });

  it('should index the example documents, find them by meaning and by words, and not duplicate on a rerun', async () => {
    const url = esUrl();
    const first = await runFolio(['ingest', 'examples/docs/folio-handbook.pdf', 'examples/docs/invoice-ocr.md', '--es', url, '--index', index]);
    assert.equal(first.code, 0, first.stderr);
    const client = esClient();
    await client.indices.refresh({ index });
    const count = (await client.count({ index })).count;
    assert.ok(count >= 4, `chunks indexed: ${count}`);
    const sample = await client.search<{ vector?: number[]; pages: number[]; source: string }>({
      index,
      size: 1,
      query: { match: { text: 'Northwind Paper' } },
      _source_exclude_vectors: false,
    } as never);
    const doc = sample.hits.hits[0]?._source;
    assert.ok(doc, 'the table row is searchable by BM25');
    assert.equal(doc.vector?.length, 384, 'chunks carry the embedding');

    const search = await runFolio(['search', 'how are scanned pages recognised without a text layer', '--es', url, '--index', index, '--json', '--k', '3']);
    assert.equal(search.code, 0, search.stderr);
    const hits = JSON.parse(search.stdout) as Hit[];
    assert.ok(hits.length > 0);
    assert.match(hits[0]!.source, /folio-handbook\.pdf$/);
    assert.ok(hits[0]!.pages.length > 0);

    const again = await runFolio(['ingest', 'examples/docs/folio-handbook.pdf', 'examples/docs/invoice-ocr.md', '--es', url, '--index', index]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /2 unchanged/);
    await client.indices.refresh({ index });
    assert.equal((await client.count({ index })).count, count, 'a rerun adds nothing');
  });

  it('should print a cited context block for ask', async () => {
    const ask = await runFolio(['ask', 'What is the amount for Atlas Print in Q2?', '--es', esUrl(), '--index', index, '--k', '2']);
    assert.equal(ask.code, 0, ask.stderr);
    assert.match(ask.stdout, /invoice-ocr\.md/);
    assert.match(ask.stdout, /910/);
  });
});
