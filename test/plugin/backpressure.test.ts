/**
 * Busy is not failed: documents through `_bulk?pipeline=` with the processor and a real
 * `folio serve` both at their defaults all end indexed (the server queues, the processor keeps no
 * more open than the server takes and waits as a 429 tells it); a tight server turns some away
 * with 429 and still nothing is dead-lettered. And a result too large for Elasticsearch is
 * stored smaller or recorded with its reason, never lost.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { OcrEngine } from '../../inference/engine.ts';
import { createPaddleEngine } from '../../inference/paddle/index.ts';
import { folioPipeline, installPluginIndices } from '../../mappings/index.ts';
import { type OcrServer, startOcrServer } from '../../server/index.ts';
import { deleteIndices, deletePipelines, esClient, esUrl, uniqueIndexName } from '../support/elasticsearch.ts';

/** Documents in CI: enough to overrun a default server's 8 at once; the 200-document run is `folio bench plugin`. */
const DOCUMENTS = 40;
/** Every this many documents is a scan (OCR), the rest born-digital. */
const SCAN_EVERY = 5;

async function smallPdf(n: number): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([400, 300]);
  page.drawText(`Report ${n}`, { x: 40, y: 250, size: 18, font });
  page.drawText(`Shipment ${n} left the warehouse with ${n * 7} parcels.`, { x: 40, y: 200, size: 10, font });
  return Buffer.from(await doc.save()).toString('base64');
}

type Folio = { markdown?: string; elements?: unknown[]; chunks?: unknown[]; omitted?: string[] };

describe('the folio processor under load and with large results (real folio serve)', function () {
  this.timeout(600_000);
  const es = () => esClient();
  let engine: OcrEngine;
  let prefix = '';
  const docs = new Map<string, string>();
  const servers: OcrServer[] = [];

  before(async function () {
    esUrl(this);
    engine = await createPaddleEngine({});
    prefix = uniqueIndexName('folio-load');
    const scan = (await readFile('examples/docs/scanned-memo.png')).toString('base64');
    for (let n = 0; n < DOCUMENTS; n++) docs.set(`doc-${n}`, n % SCAN_EVERY === 0 ? scan : await smallPdf(n));
  });
  after(async () => {
    if (prefix !== '') {
      await deleteIndices(prefix);
      await deletePipelines(prefix, es());
    }
    for (const server of servers) await server.close();
    await engine?.close();
  });

  async function serve(options: Partial<Parameters<typeof startOcrServer>[0]> = {}): Promise<{ url: string; statuses: number[] }> {
    const statuses: number[] = [];
    const server = await startOcrServer({
      engine,
      port: 0,
      log: (_level, message, fields) => {
        if (message === 'request' && String(fields?.['path']).startsWith('/v1/convert')) statuses.push(Number(fields?.['status']));
      },
      ...options,
    });
    servers.push(server);
    return { url: server.url, statuses };
  }

  /** A pipeline at the processor's defaults (only `server` and, where given, more options), its indices installed. */
  async function pipeline(name: string, url: string, processor: Record<string, unknown> = {}) {
    const index = `${prefix}-${name}`;
    const deadLetter = `${index}-failed`;
    await es().ingest.putPipeline({ id: index, ...folioPipeline({ servers: [url], deadLetterIndex: deadLetter, embed: false, processor }) });
    await installPluginIndices(es(), { index, deadLetterIndex: deadLetter });
    return { index, deadLetter };
  }

  /** Bulk every document through the pipeline at once; where each ended. */
  async function bulkAll(index: string, deadLetter: string, ids: readonly string[]) {
    const response = await es().bulk(
      { pipeline: index, refresh: 'wait_for', operations: ids.flatMap((id) => [{ index: { _index: index, _id: id } }, { data: docs.get(id) }]) },
      { requestTimeout: 600_000 },
    );
    const refused = response.items.filter((item) => item.index?.error !== undefined);
    assert.deepEqual(refused, [], 'no bulk item was refused');
    const indexed = response.items.filter((item) => item.index?._index === index).length;
    const dead = await es().search<{ folio_failure: { message: string } }>({ index: deadLetter, size: ids.length }, { ignore: [404] });
    const reasons = (dead.hits?.hits ?? []).map((hit) => `${hit._id}: ${hit._source?.folio_failure.message}`);
    return { indexed, reasons };
  }

  it(`should index all ${DOCUMENTS} documents (text and scans) in one bulk with both sides at their defaults, none dead-lettered`, async () => {
    const { url, statuses } = await serve();
    const { index, deadLetter } = await pipeline('defaults', url);
    const { indexed, reasons } = await bulkAll(index, deadLetter, [...docs.keys()]);
    assert.deepEqual(reasons, [], 'nothing dead-lettered');
    assert.equal(indexed, DOCUMENTS);
    assert.equal(statuses.filter((s) => s === 200).length, DOCUMENTS, `statuses: ${statuses.join(',')}`);
  });

  it('should index everything through a server that takes 2 at a time, waiting out its 429s instead of dead-lettering', async () => {
    const { url, statuses } = await serve({ convertLimit: 1, convertQueue: { queueLimit: 1 } });
    const { index, deadLetter } = await pipeline('tight', url);
    const ids = [...docs.keys()].slice(0, 12);
    const { indexed, reasons } = await bulkAll(index, deadLetter, ids);
    assert.deepEqual(reasons, [], 'nothing dead-lettered');
    assert.equal(indexed, ids.length);
    // Each document converted once; what was turned away (if anything) came back.
    assert.equal(statuses.filter((s) => s === 200).length, ids.length, `statuses: ${statuses.join(',')}`);
    assert.ok(
      statuses.every((s) => s === 200 || s === 429),
      statuses.join(','),
    );
  });

  it('should leave out repeated parts of a result past max_output_bytes, and dead-letter one that cannot fit with the sizes', async () => {
    const { url } = await serve();
    const handbook = (await readFile('examples/docs/folio-handbook.pdf')).toString('base64');
    docs.set('handbook', handbook);
    const whole = await pipeline('size-whole', url);
    await bulkAll(whole.index, whole.deadLetter, ['handbook']);
    const full = (await es().get<{ folio: Folio }>({ index: whole.index, id: 'handbook' }))._source!.folio;
    const elementsBytes = JSON.stringify(full.elements).length;
    const chunksBytes = JSON.stringify(full.chunks).length;
    // Room for the chunks but not for the elements as well.
    const bound = chunksBytes + JSON.stringify(full.markdown).length + Math.floor(elementsBytes / 2);
    const smaller = await pipeline('size-smaller', url, { max_output_bytes: bound });
    const kept = await bulkAll(smaller.index, smaller.deadLetter, ['handbook']);
    assert.equal(kept.indexed, 1, kept.reasons.join('; '));
    const trimmed = (await es().get<{ folio: Folio }>({ index: smaller.index, id: 'handbook' }))._source!.folio;
    assert.equal(trimmed.elements, undefined);
    assert.ok(trimmed.omitted?.includes('elements'), JSON.stringify(trimmed.omitted));
    assert.ok((trimmed.chunks?.length ?? 0) > 0);

    const tiny = await pipeline('size-tiny', url, { max_output_bytes: 2000 });
    const failed = await bulkAll(tiny.index, tiny.deadLetter, ['handbook']);
    assert.equal(failed.indexed, 0);
    assert.equal(failed.reasons.length, 1);
    assert.match(failed.reasons[0]!, /the conversion of \[.*\/handbook\] would write about \d+ bytes, more than max_output_bytes 2000/);
  });
});
