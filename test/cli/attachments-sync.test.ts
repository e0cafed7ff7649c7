/**
 * `folio ingest` of an e-mail with a PDF and a DOCX attached: each attachment is a document of
 * its own (its own id, its chunks and record naming the message), the message's record lists
 * them, and a sync replaces them when the message changes and removes them when it is deleted.
 * Into NDJSON files, and into the real Elasticsearch the test setup starts.
 */
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { stableId } from '../../core/hash.ts';
import { makeDocx, p } from '../pipeline/formats/zip-writer.ts';
import { deleteIndices, esClient, esUrl, uniqueIndexName } from '../support/elasticsearch.ts';
import { DOCX_MIME as DOCX, email } from '../support/mail.ts';
import { runFolio } from './run-folio.ts';

/** What a store holds of a document: its record's parent and children, and its chunks' parent. */
interface Stored {
  readonly parentId?: string | undefined;
  readonly children?: readonly string[] | undefined;
  readonly chunks: number;
  readonly chunkParents: readonly (string | undefined)[];
}

function describeSync(name: string, options: { es: boolean }): void {
  describe(name, function () {
    this.timeout(120_000);
    let dir = '';
    let out = '';
    let index = '';
    let pdf: Uint8Array = new Uint8Array();
    const docx = makeDocx(p('Quarterly figures for the north region', { style: 'Heading1' }) + p('Revenue rose by a tenth over the quarter.'));
    const mailUri = (): string => pathToFileURL(join(dir, 'mail.eml')).href;
    const ingest = () =>
      runFolio(
        ['ingest', dir, ...(options.es ? ['--es', esUrl(), '--index', index] : []), '--out', out, '--engine', 'text', '--embed', 'none', '--workers', '0'],
        // Without --es the run writes files, whatever cluster the test setup exported.
        options.es ? {} : { ELASTICSEARCH_URL: undefined },
      );

    /** Every document the store holds, by id. */
    const stored = async (): Promise<Map<string, Stored>> => {
      const docs = new Map<string, Stored>();
      if (options.es) {
        const client = esClient();
        await client.indices.refresh({ index: [index, `${index}-documents`] });
        const records = await client.search<{ doc_id: string; parent_id?: string; children?: string[] }>({ index: `${index}-documents`, size: 100 });
        const chunks = await client.search<{ doc_id: string; parent_id?: string }>({ index, size: 1000 });
        for (const hit of records.hits.hits) {
          const record = hit._source!;
          const own = chunks.hits.hits.map((c) => c._source!).filter((c) => c.doc_id === record.doc_id);
          docs.set(record.doc_id, { parentId: record.parent_id, children: record.children, chunks: own.length, chunkParents: own.map((c) => c.parent_id) });
        }
        return docs;
      }
      const lines = async (file: string) =>
        (await readFile(join(out, file), 'utf8'))
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line) as Record<string, unknown>);
      const chunks = await lines('chunks.jsonl');
      for (const record of await lines('documents.jsonl')) {
        const own = chunks.filter((c) => c['docId'] === record['docId']);
        docs.set(record['docId'] as string, {
          parentId: record['parentId'] as string | undefined,
          children: record['children'] as string[] | undefined,
          chunks: own.length,
          chunkParents: own.map((c) => c['parentId'] as string | undefined),
        });
      }
      return docs;
    };

    beforeEach(async function () {
      if (options.es) {
        esUrl(this);
        index = uniqueIndexName('folio-test-attach');
      }
      dir = await mkdtemp(join(tmpdir(), 'folio-attach-'));
      out = await mkdtemp(join(tmpdir(), 'folio-attach-out-'));
      pdf = new Uint8Array(await readFile('examples/docs/folio-handbook.pdf'));
      await copyFile('examples/docs/invoice-ocr.md', join(dir, 'invoice.md'));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
      await rm(out, { recursive: true, force: true });
      if (index !== '') await deleteIndices(index);
    });

    it('should index attachments as child documents, replace them with the message, and prune them with it', async () => {
      await writeFile(
        join(dir, 'mail.eml'),
        email('Quarter report', [
          { name: 'handbook.pdf', type: 'application/pdf', bytes: pdf },
          { name: 'figures.docx', type: DOCX, bytes: docx },
        ]),
      );
      const first = await ingest();
      assert.equal(first.code, 0, first.stderr);
      const mailId = stableId(mailUri());
      const pdfId = stableId(mailId, 'attachment', 'handbook.pdf');
      const docxId = stableId(mailId, 'attachment', 'figures.docx');
      let docs = await stored();
      assert.deepEqual(docs.get(mailId)?.children, [pdfId, docxId], 'the message lists its attachments');
      assert.equal(docs.get(mailId)?.parentId, undefined);
      for (const child of [pdfId, docxId]) {
        const doc = docs.get(child);
        assert.equal(doc?.parentId, mailId, `${child}: its record names the message`);
        assert.ok((doc?.chunks ?? 0) > 0, `${child}: its own chunks`);
        assert.ok(
          doc?.chunkParents.every((parent) => parent === mailId),
          `${child}: every chunk names the message`,
        );
      }
      assert.ok(docs.get(mailId)?.chunkParents.every((parent) => parent === undefined));

      // The message changes: the DOCX is no longer attached, so its child document goes.
      await writeFile(join(dir, 'mail.eml'), email('Quarter report, revised', [{ name: 'handbook.pdf', type: 'application/pdf', bytes: pdf }]));
      const second = await ingest();
      assert.equal(second.code, 0, second.stderr);
      docs = await stored();
      assert.deepEqual(docs.get(mailId)?.children, [pdfId]);
      assert.equal(docs.has(docxId), false, 'the attachment the message lost is removed');
      assert.ok((docs.get(pdfId)?.chunks ?? 0) > 0);

      // The message is deleted: its attachments go with it; the other file stays.
      await rm(join(dir, 'mail.eml'));
      const third = await ingest();
      assert.equal(third.code, 0, third.stderr);
      assert.match(third.stderr, /removed 2\b/, third.stderr);
      docs = await stored();
      assert.deepEqual([...docs.keys()], [stableId(pathToFileURL(join(dir, 'invoice.md')).href)]);
      assert.ok((docs.values().next().value?.chunks ?? 0) > 0);
    });
  });
}

describeSync('folio ingest of e-mail attachments into NDJSON files', { es: false });
describeSync('folio ingest of e-mail attachments (real Elasticsearch)', { es: true });
