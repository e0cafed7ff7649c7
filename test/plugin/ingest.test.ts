/**
 * The `folio` ingest processor inside the Elasticsearch the suite starts (the test setup builds
 * the plugin and installs it before the server starts), against a real `folio serve`.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Embedder } from '../../inference/embed/index.ts';
import { createLocalEmbedder } from '../../inference/embed/index.ts';
import type { OcrEngine } from '../../inference/engine.ts';
import { createPaddleEngine } from '../../inference/paddle/index.ts';
import { folioPipeline, INGESTED_CHUNKS_PATH, installIngestedTemplate, installPluginIndices, replayDeadLetters } from '../../mappings/index.ts';
import { FolioRetriever } from '../../retrieval/langchain/retriever.ts';
import { hybridSearch } from '../../retrieval/search.ts';
import { type OcrServer, silentLogger, startOcrServer } from '../../server/index.ts';
import { runFolio } from '../cli/run-folio.ts';
import { deleteIndices, deletePipelines, esClient, esUrl, uniqueIndexName } from '../support/elasticsearch.ts';

interface FolioField {
  markdown?: string;
  mime?: string;
  pages?: { page_number: number; engine: string }[];
  elements?: { kind: string; bbox?: number[] }[];
  chunks?: { text: string; pages: number[]; heading_path: string[]; vector?: number[] }[];
}

type Source = { data?: string; folio?: FolioField; folio_failure?: { message: string; processor_type?: string; index?: string } };

/** The ES error body of a failed request, as text. */
function reasonOf(error: unknown): string {
  return JSON.stringify((error as { meta?: { body?: unknown } }).meta?.body ?? String(error));
}

describe('the folio ingest processor (Elasticsearch plugin)', function () {
  this.timeout(180_000);
  const es = () => esClient();
  let engine: OcrEngine;
  let embedder: Embedder;
  let serve: OcrServer;
  let prefix = '';
  let pdf: string;
  let png: string;
  let markdown: string;

  before(async function () {
    esUrl(this);
    const plugins = (await es().cat.plugins({ format: 'json' })) as { component: string }[];
    assert.ok(
      plugins.some((p) => p.component === 'folio-ingest'),
      `the folio-ingest plugin is not installed in ${esUrl()} (the test setup installs it; a cluster given by ELASTICSEARCH_URL must have it): ${JSON.stringify(plugins)}`,
    );
    engine = await createPaddleEngine({});
    embedder = await createLocalEmbedder({});
    serve = await startOcrServer({ engine, port: 0, log: silentLogger, embedder });
    prefix = uniqueIndexName('folio-plugin');
    pdf = (await readFile('examples/docs/folio-handbook.pdf')).toString('base64');
    png = (await readFile('examples/docs/scanned-memo.png')).toString('base64');
    markdown = (await readFile('examples/docs/invoice-ocr.md')).toString('base64');
  });
  after(async () => {
    if (prefix !== '') {
      await deleteIndices(prefix);
      await deletePipelines(prefix, es());
    }
    await serve?.close();
    await embedder?.close();
    await engine?.close();
  });

  /**
   * A pipeline (and its template and dead-letter index name) for `servers`. The dead-letter index
   * must not have the pipeline as its default: Elasticsearch runs the new index's default
   * pipeline when a pipeline reroutes a document.
   */
  async function pipeline(
    name: string,
    servers: readonly string[],
    processor: Record<string, unknown> = {},
  ): Promise<{ id: string; index: string; deadLetter: string }> {
    // `id` is the pipeline, `index` the index it writes (the same name).
    const id = `${prefix}-${name}`;
    const deadLetter = `${id}-failed`;
    await es().ingest.putPipeline({ id, ...folioPipeline({ servers, deadLetterIndex: deadLetter, processor }) });
    await installIngestedTemplate(es(), { name: id, indexPatterns: [id], defaultPipeline: id });
    return { id, index: id, deadLetter };
  }

  async function simulate(processor: Record<string, unknown>, docs: { _source: Record<string, unknown> }[]) {
    return es().ingest.simulate({
      pipeline: { processors: [{ folio: { server: [serve.url], ...processor } }] as never },
      docs: docs.map((d, i) => ({ _index: 'sim', _id: String(i + 1), ...d })),
    });
  }

  it('should convert a born-digital PDF in _simulate: Markdown, text-layer pages, elements with boxes, chunks with vectors, binary removed', async () => {
    const result = await simulate({ field: 'data', embed: true }, [{ _source: { data: pdf, title: 'handbook' } }]);
    const doc = result.docs[0]!.doc!._source as Source & { title: string };
    assert.equal(doc.data, undefined, 'remove_binary defaults to true');
    assert.equal(doc.title, 'handbook');
    assert.match(doc.folio!.markdown!, /^# Folio Handbook/m);
    assert.equal(doc.folio!.mime, 'application/pdf');
    assert.ok(doc.folio!.pages!.every((p) => p.engine === 'text'));
    assert.ok(doc.folio!.elements!.some((e) => e.bbox?.length === 4));
    assert.ok(doc.folio!.chunks!.length > 0);
    assert.ok(doc.folio!.chunks!.every((c) => c.vector?.length === 384 && c.pages.length > 0));
  });

  it('should index a born-digital PDF, a scan and OCR Markdown, and find their chunks by kNN with inner hits', async () => {
    const { index } = await pipeline('docs', [serve.url]);
    const bulk = await es().bulk({
      refresh: 'wait_for',
      operations: [
        { index: { _index: index, _id: 'handbook' } },
        { data: pdf },
        { index: { _index: index, _id: 'memo' } },
        { data: png },
        { index: { _index: index, _id: 'invoice' } },
        { data: markdown },
      ],
    });
    assert.equal(bulk.errors, false, JSON.stringify(bulk.items));
    const get = async (id: string) => ((await es().get<Source>({ index, id })).found ? (await es().get<Source>({ index, id }))._source!.folio! : undefined);
    const handbook = await get('handbook');
    const memo = await get('memo');
    const invoice = await get('invoice');
    assert.ok(handbook?.pages?.every((p) => p.engine === 'text'));
    assert.equal(memo?.pages?.[0]?.engine, 'paddle');
    assert.match(memo!.markdown!, /Quarterly Archive Review/i);
    assert.equal(invoice?.mime, 'text/markdown');
    assert.match(invoice!.markdown!, /Invoice Summary 2026/);
    assert.ok(invoice!.elements!.some((e) => e.kind === 'table'));

    const [vector] = await embedder.embed(['quarterly archive review of invoices']);
    const knn = await es().search({
      index,
      knn: {
        field: `${INGESTED_CHUNKS_PATH}.vector`,
        query_vector: Array.from(vector!),
        k: 3,
        num_candidates: 20,
        inner_hits: { size: 2, _source: [`${INGESTED_CHUNKS_PATH}.text`] },
      },
      _source: false,
    });
    assert.equal(knn.hits.hits[0]!._id, 'memo', JSON.stringify(knn.hits.hits.map((h) => h._id)));
    const inner = (knn.hits.hits[0]!.inner_hits as Record<string, { hits: { hits: { _source: { text: string } }[] } }>)[INGESTED_CHUNKS_PATH]!.hits.hits;
    assert.match(inner[0]!._source.text, /Archive|invoice/i);

    // folio search and the LangChain retriever on the same index, hits being the chunks.
    for (const mode of ['hybrid', 'bm25', 'knn'] as const) {
      const hits = await hybridSearch({ client: es(), index, query: 'supplier amounts Northwind Paper', k: 3, embedder, mode, nested: INGESTED_CHUNKS_PATH });
      assert.ok(hits.length > 0, mode);
      assert.match(hits[0]!.source, /invoice/, `${mode}: ${JSON.stringify(hits.map((h) => h.source))}`);
      assert.ok(hits[0]!.pages.length > 0);
    }
    const filtered = await hybridSearch({
      client: es(),
      index,
      query: 'pipeline',
      k: 5,
      embedder,
      mode: 'knn',
      nested: INGESTED_CHUNKS_PATH,
      filters: { kind: 'table' },
    });
    assert.ok(
      filtered.every((h) => h.kind.includes('table')),
      JSON.stringify(filtered.map((h) => h.kind)),
    );
    const retriever = new FolioRetriever({ client: es(), index, k: 2, nested: INGESTED_CHUNKS_PATH, embeddings: embedder });
    const docs = await retriever.invoke('Quarterly Archive Review');
    assert.match(docs[0]!.pageContent, /Archive/i);
  });

  it('should reject a wrong option with a 400 naming it, and an api_key in the pipeline', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ field: 'data', engine: 'tesseract' }, /\[engine\] must be one of/],
      [{ field: 'data', colour: 'red' }, /doesn't support one or more provided configuration parameters \[colour\]/],
      [{ field: 'data', timeout: 'soon' }, /\[timeout\]/],
      [{ field: 'data', api_key: 'secret' }, /\[api_key\] is a secure setting/],
    ];
    for (const [processor, message] of cases) {
      await assert.rejects(
        es().ingest.putPipeline({ id: `${prefix}-bad`, processors: [{ folio: { server: [serve.url], ...processor } }] as never }),
        (error: unknown) => {
          assert.equal((error as { meta?: { statusCode?: number } }).meta?.statusCode, 400);
          assert.match(reasonOf(error), message);
          return true;
        },
      );
    }
  });

  it('should fail bad fields with a reason naming the field and document, and skip a missing one only with ignore_missing', async () => {
    const result = await simulate({ field: 'data', max_bytes: 100 }, [
      { _source: { data: '@@@ not base64 @@@' } },
      { _source: { data: '' } },
      { _source: { data: Buffer.alloc(400).toString('base64') } },
      { _source: { other: 1 } },
    ]);
    const reasons = result.docs.map((d) => JSON.stringify(d.error ?? d.doc));
    assert.match(reasons[0]!, /field \[data\] of document \[sim\/1\] is not valid base64/);
    assert.match(reasons[1]!, /field \[data\] of document \[sim\/2\] is empty \(0 bytes\)/);
    assert.match(reasons[2]!, /field \[data\] of document \[sim\/3\] holds about \d+ bytes, more than max_bytes 100/);
    assert.match(reasons[3]!, /field \[data\] is missing in document \[sim\/4\]/);
    const ignored = await simulate({ field: 'data', ignore_missing: true }, [{ _source: { other: 1 } }]);
    assert.deepEqual(ignored.docs[0]!.doc!._source, { other: 1 });
  });

  it('should fail a document whose server stays down past max_wait with a message naming the server, dead-letter it with its binary, and replay it once a server is up', async () => {
    const down = await closedPort();
    const { id, index, deadLetter } = await pipeline('down', [down], { timeout: '5s', max_wait: '2s' });
    // The dead-letter index with its mapping (the binary kept, not indexed); the template keeps its default pipeline.
    await installPluginIndices(es(), { index, deadLetterIndex: deadLetter, defaultPipeline: id });
    await es().index({ index, id: 'handbook', document: { data: pdf, source_url: 'file:///docs/handbook.pdf' }, refresh: 'wait_for' });
    const exists = await es().exists({ index, id: 'handbook' });
    assert.equal(exists, false, 'nothing landed in the main index');
    const failed = (await es().get<Source & { source_url?: string }>({ index: deadLetter, id: 'handbook' }))._source!;
    assert.equal(failed.data, pdf, 'the binary is kept for a replay');
    assert.equal(failed.source_url, 'file:///docs/handbook.pdf');
    assert.equal(failed.folio_failure!.processor_type, 'folio');
    assert.equal(failed.folio_failure!.index, index);
    assert.match(
      failed.folio_failure!.message,
      new RegExp(
        `folio could not convert \\[${index}/handbook\\] at ${down.replace(/[.:/]/g, '\\$&')} after \\d+ attempts in \\d+ s \\(max_wait 2 s spent\\).*connection failed`,
      ),
    );
    // The cause goes away (the pipeline points at a live server): the replay brings it in and removes the letter.
    await es().ingest.putPipeline({ id, ...folioPipeline({ servers: [serve.url], deadLetterIndex: deadLetter }) });
    const replay = await runFolio(['replay', '--from', deadLetter, '--es', esUrl()]);
    assert.equal(replay.code, 0, replay.stderr + replay.stdout);
    assert.match(replay.stdout, new RegExp(`indexed +${index}/handbook`));
    assert.match(replay.stdout, /1 indexed \(dead letters removed\), 0 failed again, 0 not replayable/);
    const indexed = (await es().get<Source>({ index, id: 'handbook' }))._source!;
    assert.match(indexed.folio!.markdown!, /^# Folio Handbook/m);
    assert.equal(await es().exists({ index: deadLetter, id: 'handbook' }), false, 'the dead letter is gone');
    // A dead letter whose binary was removed says why it cannot be replayed, and stays.
    await es().index({
      index: deadLetter,
      id: 'stripped',
      document: { folio_failure: { index, pipeline: id, removed: 'data', message: 'x' } },
      refresh: 'wait_for',
    });
    const items: string[] = [];
    const stats = await replayDeadLetters(es(), { from: deadLetter, onItem: (item) => items.push(`${item.outcome} ${item.id}: ${item.reason ?? ''}`) });
    assert.deepEqual(stats, { indexed: 0, failed: 0, skipped: 1 });
    assert.match(items[0]!, /skipped stripped: its field \[data\] was removed when it failed \(remove_field\)/);
    assert.equal(await es().exists({ index: deadLetter, id: 'stripped' }), true);
  });

  it('should retry a 429 storm from a stub server, then fail the document with the status and reason', async () => {
    let hits = 0;
    const stub = await listen((req, res) => {
      // The processor asks /health for the server's limits: only conversions count.
      if (req.url?.startsWith('/v1/convert')) hits++;
      res
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' })
        .end(JSON.stringify({ error: { message: 'the server is busy (64 pages queued); retry after 1 s', type: 'rate_limit_exceeded', code: 429 } }));
    });
    try {
      const { index, deadLetter } = await pipeline('storm', [stub.url], { max_wait: '3s' });
      await es().index({ index, id: 'busy', document: { data: pdf }, refresh: 'wait_for' });
      const failed = (await es().get<Source>({ index: deadLetter, id: 'busy' }))._source!;
      // Busy is retried until max_wait is spent, not a fixed number of times.
      assert.ok(hits >= 4, `hits ${hits}`);
      assert.match(failed.folio_failure!.message, /after \d+ attempts in \d s \(max_wait 3 s spent\): HTTP 429 the server is busy/);
    } finally {
      stub.server.close();
    }
  });
});

/** A local URL nothing listens on. */
async function closedPort(): Promise<string> {
  const { server, url } = await listen(() => {});
  await new Promise((resolve) => server.close(resolve));
  return url;
}

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
