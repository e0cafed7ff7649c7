import assert from 'node:assert/strict';
import { ConfigurationError } from '../../core/errors.ts';
import { DEFAULT_DIMS, indexBody, installMappings, MAPPING_VERSION, templateName } from '../../mappings/index.ts';
import { esClient, throwawayIndex } from '../support/elasticsearch.ts';

describe('indexBody', () => {
  it('should fill the vector size and leave the JSON source untouched', () => {
    const body = indexBody('chunks', 768);
    assert.deepEqual(body.mappings.properties['vector'], { type: 'dense_vector', dims: 768, index: true, similarity: 'cosine' });
    assert.equal((indexBody('chunks').mappings.properties['vector'] as { dims: number }).dims, DEFAULT_DIMS);
  });

  it('should use only built-in analyzers', () => {
    const builtIn = new Set(['standard', 'simple', 'whitespace', 'keyword']);
    for (const role of ['chunks', 'documents', 'failures'] as const) {
      const analyzers = [...JSON.stringify(indexBody(role)).matchAll(/"analyzer":"([^"]+)"/g)].map((m) => m[1]);
      for (const analyzer of analyzers) assert.ok(builtIn.has(analyzer ?? ''), `${role}: ${analyzer}`);
    }
  });
});

describe('installMappings', () => {
  const index = throwawayIndex('folio-test-map');

  it('should create templates and indices once, then change nothing', async () => {
    const client = esClient();
    const options = { index: index.name, documentsIndex: index.documents, failuresIndex: index.failures, dims: 8 };
    const first = await installMappings(client, options);
    assert.deepEqual(
      [...first.created].sort(),
      [
        index.name,
        index.documents,
        index.failures,
        `template:${templateName(index.name)}`,
        `template:${templateName(index.documents)}`,
        `template:${templateName(index.failures)}`,
      ].sort(),
    );
    const before = await client.indices.getMapping({ index: index.name });
    const second = await installMappings(client, options);
    assert.deepEqual(second, { created: [], updated: [] });
    const after = await client.indices.getMapping({ index: index.name });
    assert.deepEqual(after, before);
    const mapping = after[index.name]?.mappings;
    assert.deepEqual(mapping?._meta, { folio: { version: MAPPING_VERSION, role: 'chunks', dims: 8 } });
    assert.equal((mapping?.properties?.['vector'] as { dims: number } | undefined)?.dims, 8);
    assert.equal((await client.indices.getSettings({ index: index.name }))[index.name]?.settings?.index?.number_of_replicas, '0');
  });

  it('should refuse a dims mismatch with an existing index', async () => {
    const options = { index: index.name, documentsIndex: index.documents, failuresIndex: index.failures };
    await installMappings(esClient(), { ...options, dims: 8 });
    await assert.rejects(installMappings(esClient(), { ...options, dims: 16 }), (error: unknown) => {
      assert.ok(error instanceof ConfigurationError);
      assert.equal(error.code, 'FOLIO_ES_DIMS_MISMATCH');
      assert.match(error.message, new RegExp(`${index.name} stores 8-dimensional vectors but \`dims\` is 16`));
      return true;
    });
  });

  it('should give an index created later the template mapping', async () => {
    const client = esClient();
    await installMappings(client, { index: index.name, documentsIndex: index.documents, failuresIndex: index.failures, dims: 4 });
    await client.indices.delete({ index: index.name });
    await client.index({ index: index.name, id: 'a', document: { text: 'hello', vector: [1, 0, 0, 0] }, refresh: true });
    const mapping = (await client.indices.getMapping({ index: index.name }))[index.name]?.mappings;
    assert.equal((mapping?.properties?.['vector'] as { type: string } | undefined)?.type, 'dense_vector');
    assert.equal(mapping?.dynamic, 'false');
  });

  it('should name the option and value when invalid', async () => {
    await assert.rejects(installMappings(esClient(), { index: 'Bad Name' }), /Expected `index` to be a lowercase index name.*got `Bad Name`/);
    await assert.rejects(installMappings(esClient(), { dims: 0 }), /Expected `dims` to be an integer from 1 to 4096, got `0` \(number\)/);
  });
});
