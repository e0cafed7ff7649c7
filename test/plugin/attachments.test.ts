/**
 * E-mails through the `folio` ingest processor (the plugin the test setup builds and installs in
 * its Elasticsearch), against a real `folio serve`: the attachments' text is stored on the
 * message's document (`folio.attachments`), so a word found only in an attached file finds the
 * e-mail, by a plain match and in the attachments' nested chunks.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { OcrEngine } from '../../inference/engine.ts';
import { createPaddleEngine } from '../../inference/paddle/index.ts';
import { folioPipeline, INGESTED_ATTACHMENT_CHUNKS_PATH, installIngestedTemplate } from '../../mappings/index.ts';
import { type OcrServer, silentLogger, startOcrServer } from '../../server/index.ts';
import { makeDocx, p } from '../pipeline/formats/zip-writer.ts';
import { deleteIndices, deletePipelines, esClient, esUrl, uniqueIndexName } from '../support/elasticsearch.ts';
import { DOCX_MIME, email } from '../support/mail.ts';

interface Attachment {
  doc_id: string;
  parent_id: string;
  depth: number;
  name: string;
  markdown?: string;
  chunks?: { text: string; parent_id?: string }[];
}

type Source = { data?: string; folio?: { markdown?: string; attachments?: Attachment[] } };

/** A word that occurs in the attached Word file only: not in the message, not in the other file. */
const ONLY_IN_ATTACHMENT = 'heliotrope';

describe('the folio ingest processor with e-mail attachments (Elasticsearch plugin)', function () {
  this.timeout(180_000);
  const es = () => esClient();
  let engine: OcrEngine;
  let serve: OcrServer;
  let prefix = '';

  before(async function () {
    esUrl(this);
    const plugins = (await es().cat.plugins({ format: 'json' })) as { component: string }[];
    assert.ok(
      plugins.some((p) => p.component === 'folio-ingest'),
      `the folio-ingest plugin is not installed in ${esUrl()} (the test setup installs it): ${JSON.stringify(plugins)}`,
    );
    engine = await createPaddleEngine({});
    serve = await startOcrServer({ engine, port: 0, log: silentLogger });
    prefix = uniqueIndexName('folio-plugin-mail');
  });
  after(async () => {
    if (prefix !== '') {
      await deleteIndices(prefix);
      await deletePipelines(prefix, es());
    }
    await serve?.close();
    await engine?.close();
  });

  it('should store the attachments on the message and find the e-mail by a word only an attachment holds', async () => {
    const index = `${prefix}-mail`;
    await es().ingest.putPipeline({
      id: index,
      ...folioPipeline({ servers: [serve.url], deadLetterIndex: `${index}-failed`, embed: false, processor: { engine: 'text' } }),
    });
    await installIngestedTemplate(es(), { name: index, indexPatterns: [index], defaultPipeline: index });
    const pdf = new Uint8Array(await readFile('examples/docs/folio-handbook.pdf'));
    const docx = makeDocx(p('Garden plan', { style: 'Heading1' }) + p(`The east border gets ${ONLY_IN_ATTACHMENT} and lavender this spring.`));
    const mail = email('Plans for the spring', [
      { name: 'handbook.pdf', type: 'application/pdf', bytes: pdf },
      { name: 'garden.docx', type: DOCX_MIME, bytes: docx },
    ]);
    const bulk = await es().bulk({
      refresh: 'wait_for',
      operations: [
        { index: { _index: index, _id: 'mail' } },
        { data: Buffer.from(mail).toString('base64') },
        { index: { _index: index, _id: 'invoice' } },
        { data: (await readFile('examples/docs/invoice-ocr.md')).toString('base64') },
      ],
    });
    assert.equal(bulk.errors, false, JSON.stringify(bulk.items));

    const stored = (await es().get<Source>({ index, id: 'mail' }))._source!;
    assert.equal(stored.data, undefined);
    assert.doesNotMatch(stored.folio!.markdown!, new RegExp(ONLY_IN_ATTACHMENT));
    const attachments = stored.folio!.attachments ?? [];
    assert.deepEqual(
      attachments.map((a) => [a.name, a.depth]),
      [
        ['handbook.pdf', 1],
        ['garden.docx', 1],
      ],
    );
    const garden = attachments[1]!;
    assert.match(garden.markdown ?? '', new RegExp(ONLY_IN_ATTACHMENT));
    assert.ok((garden.chunks ?? []).some((c) => c.text.includes(ONLY_IN_ATTACHMENT) && c.parent_id === garden.parent_id));
    assert.match(attachments[0]!.markdown ?? '', /^# Folio Handbook/m);

    const ids = async (query: object) => (await es().search({ index, query, _source: false })).hits.hits.map((h) => h._id);
    assert.deepEqual(await ids({ match: { 'folio.markdown': ONLY_IN_ATTACHMENT } }), [], "the word is not in the message's own text");
    assert.deepEqual(await ids({ match: { 'folio.attachments.markdown': ONLY_IN_ATTACHMENT } }), ['mail']);
    assert.deepEqual(await ids({ match: { 'folio.attachments.name': 'garden' } }), ['mail']);
    const nested = await es().search({
      index,
      query: {
        nested: {
          path: INGESTED_ATTACHMENT_CHUNKS_PATH,
          query: { match: { [`${INGESTED_ATTACHMENT_CHUNKS_PATH}.text`]: ONLY_IN_ATTACHMENT } },
          inner_hits: { _source: [`${INGESTED_ATTACHMENT_CHUNKS_PATH}.text`] },
        },
      },
      _source: false,
    });
    assert.deepEqual(
      nested.hits.hits.map((h) => h._id),
      ['mail'],
    );
    const inner = (nested.hits.hits[0]!.inner_hits as Record<string, { hits: { hits: { _source: { text: string } }[] } }>)[INGESTED_ATTACHMENT_CHUNKS_PATH]!;
    assert.match(inner.hits.hits[0]!._source.text, new RegExp(ONLY_IN_ATTACHMENT));
  });
});
