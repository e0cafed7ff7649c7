import assert from 'node:assert/strict';
import type { estypes } from '@elastic/elasticsearch';
import { folioPipeline, indexBody, ingestedTemplateBody } from '../../mappings/index.ts';

describe('ingestedTemplateBody', () => {
  it('should nest exactly the chunk index fields under folio.chunks, with the asked vector size', () => {
    const folio = ingestedTemplateBody(768).mappings!.properties!['folio'] as estypes.MappingObjectProperty;
    const chunks = folio.properties!['chunks'] as estypes.MappingNestedProperty;
    assert.equal(chunks.type, 'nested');
    assert.deepEqual(chunks.properties, indexBody('chunks', 768).mappings.properties, 'one chunk mapping for both ways into Elasticsearch');
    const attachments = folio.properties!['attachments'] as estypes.MappingObjectProperty;
    const attachmentChunks = attachments.properties!['chunks'] as estypes.MappingNestedProperty;
    assert.equal(attachmentChunks.type, 'nested');
    assert.deepEqual(attachmentChunks.properties, indexBody('chunks', 768).mappings.properties, "an attachment's chunks map as the message's");
    assert.equal((attachments.properties!['markdown'] as { type: string }).type, 'text', "an attachment's text is searched");
    assert.equal((folio.properties!['markdown'] as { type: string }).type, 'text');
    assert.equal((folio.properties!['mime'] as { type: string }).type, 'keyword');
  });
});

describe('folioPipeline', () => {
  it('should route failures to the dead-letter index with the binary, so they can be replayed', () => {
    const body = folioPipeline({ servers: ['http://a:8000'], deadLetterIndex: 'docs-failed', field: 'blob', processor: { engine: 'text' } });
    assert.deepEqual(body.processors[0], {
      folio: {
        field: 'blob',
        server: ['http://a:8000'],
        embed: true,
        engine: 'text',
        on_failure: [{ folio_failed: { index: 'docs-failed' } }],
      },
    });
  });
});

describe('mappings/ingested.json', () => {
  it('should be a PUT _index_template body as it is: index_patterns, no unknown keys', async () => {
    const { readFile } = await import('node:fs/promises');
    const body = JSON.parse(await readFile('mappings/ingested.json', 'utf8')) as Record<string, unknown>;
    assert.deepEqual(body['index_patterns'], ['docs']);
    assert.deepEqual(Object.keys(body).sort(), ['_meta', 'index_patterns', 'priority', 'template']);
  });
});
