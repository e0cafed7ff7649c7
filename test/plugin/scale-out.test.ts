/**
 * Scale-out on a 3-node cluster with the plugin on every node and two `folio serve` processes:
 * a few hundred small PDFs in bulk through the pipeline, spread over all nodes; one folio serve
 * killed mid-run, then one Elasticsearch node stopped mid-run. Every document must end in the
 * index or in the dead-letter index with its reason.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@elastic/elasticsearch';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { folioPipeline, installIngestedTemplate } from '../../mappings/index.ts';
import { clusterLayout } from '../../scripts/elasticsearch/cluster.ts';
import { esLayout, type RunningElasticsearch, startElasticsearch, stopElasticsearch } from '../../scripts/elasticsearch/index.ts';
import { esUrl } from '../support/elasticsearch.ts';

const DOCUMENTS = 200;
const BULK = 20;

/** A one-page born-digital PDF saying which document it is. */
async function smallPdf(n: number): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([400, 300]);
  page.drawText(`Report ${n}`, { x: 40, y: 250, size: 18, font });
  page.drawText(`Shipment ${n} left the warehouse on day ${(n % 28) + 1} with ${n * 7} parcels.`, { x: 40, y: 200, size: 10, font });
  return Buffer.from(await doc.save()).toString('base64');
}

/** `folio serve` as its own process, so it can be killed for real. */
async function startServe(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['bin/folio.ts', 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /http:\/\/\S+/.exec(out);
      if (match) resolve(match[0]);
    });
    child.once('exit', (code) => reject(new Error(`folio serve exited with ${code}`)));
  });
  return { child, url };
}

/**
 * Index `ids` through the pipeline in bulks, a few in flight, retrying what a node going away
 * turns back (a failed request, or items with 429/5xx), a bounded number of times.
 */
async function bulkIndex(
  client: Client,
  index: string,
  docs: ReadonlyMap<string, string>,
  onBulk: (done: number) => Promise<void>,
): Promise<{ retried: number }> {
  const ids = [...docs.keys()];
  let retried = 0;
  let done = 0;
  const batches: string[][] = [];
  for (let i = 0; i < ids.length; i += BULK) batches.push(ids.slice(i, i + BULK));
  async function send(batch: readonly string[]): Promise<void> {
    let pending = batch;
    for (let attempt = 1; pending.length > 0; attempt++) {
      assert.ok(attempt <= 8, `documents ${pending.join(', ')} still not indexed after 7 retries`);
      if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
      try {
        const response = await client.bulk({ operations: pending.flatMap((id) => [{ index: { _index: index, _id: id } }, { data: docs.get(id) }]) });
        pending = response.items.flatMap((item, i) => ((item.index?.status ?? 0) >= 429 ? [pending[i]!] : []));
        const refused = response.items.find((item) => (item.index?.status ?? 0) >= 300 && (item.index?.status ?? 0) < 429);
        assert.equal(refused, undefined, `an item was refused for good: ${JSON.stringify(refused)}`);
      } catch (error) {
        if (error instanceof assert.AssertionError) throw error;
        // The whole request failed (its node went away): send it again, ids keep it idempotent.
      }
      if (pending.length > 0) retried++;
    }
    done += batch.length;
    await onBulk(done);
  }
  const queue = [...batches];
  await Promise.all(
    [0, 1, 2].map(async () => {
      for (let batch = queue.shift(); batch !== undefined; batch = queue.shift()) await send(batch);
    }),
  );
  return { retried };
}

/** Which of `ids` ended where: indexed, dead-lettered (with reason), or nowhere. */
async function account(client: Client, index: string, deadLetter: string, ids: readonly string[]) {
  await client.indices.refresh({ index: [index, deadLetter], ignore_unavailable: true });
  const found = await client.mget<{ folio?: { markdown?: string } }>({ index, ids: [...ids] });
  const indexed = new Set(found.docs.filter((d) => 'found' in d && d.found && /Report/.test(d._source?.folio?.markdown ?? '')).map((d) => d._id));
  const dead = await client.mget<{ folio_failure?: { message?: string } }>({ index: deadLetter, ids: [...ids] }, { ignore: [404] });
  const failed = new Map(
    (dead.docs ?? [])
      .filter((d) => 'found' in d && d.found)
      .map((d) => [d._id, (d as { _source?: { folio_failure?: { message?: string } } })._source?.folio_failure?.message ?? '']),
  );
  return { indexed, failed, missing: ids.filter((id) => !indexed.has(id) && !failed.has(id)) };
}

describe('scale-out on a 3-node cluster with two folio serve backends', function () {
  this.timeout(600_000);
  let root = '';
  let cluster: RunningElasticsearch | undefined;
  let client: Client | undefined;
  const serves: { child: ChildProcess; url: string }[] = [];
  const docs = new Map<string, string>();

  before(async function () {
    esUrl(this);
    root = await mkdtemp(join(tmpdir(), 'folio-es-cluster-'));
    // mkdtemp's folder is private; the server's user must reach its home inside.
    await chmod(root, 0o755);
    const layout = esLayout({ root });
    await mkdir(join(layout.zip, '..'), { recursive: true });
    await copyFile(esLayout().zip, layout.zip);
    const [started] = await Promise.all([
      // A 3-node cluster on 2 shared cores can take minutes to elect its master.
      startElasticsearch({ layout, nodes: 3, heapMb: 256, timeoutMs: 420_000 }),
      startServe().then((s) => serves.push(s)),
      startServe().then((s) => serves.push(s)),
    ]);
    cluster = started;
    client = new Client({ nodes: [...cluster.urls], maxRetries: 5, requestTimeout: 120_000 });
    for (let n = 0; n < DOCUMENTS * 2; n++) docs.set(`report-${n}`, await smallPdf(n));
  });
  after(async () => {
    await client?.close();
    for (const { child } of serves) child.kill('SIGKILL');
    if (root !== '') {
      await stopElasticsearch({ layout: clusterLayout(esLayout({ root })) });
      await rm(root, { recursive: true, force: true });
    }
  });

  async function pipeline(name: string, servers: readonly string[]): Promise<{ index: string; deadLetter: string }> {
    const index = `scale-${name}`;
    const deadLetter = `${index}-failed`;
    await client!.ingest.putPipeline({ id: index, ...folioPipeline({ servers, deadLetterIndex: deadLetter, embed: false, processor: { timeout: '60s' } }) });
    await installIngestedTemplate(client!, { name: index, indexPatterns: [index], defaultPipeline: index, replicas: 1, shards: 3 });
    await client!.indices.create({ index, wait_for_active_shards: 'all' });
    return { index, deadLetter };
  }

  it('should lose nothing when one folio serve is killed mid-run: its requests go to the other', async () => {
    const { index, deadLetter } = await pipeline(
      'serve-kill',
      serves.map((s) => s.url),
    );
    const ids = [...docs.keys()].slice(0, DOCUMENTS);
    const batch = new Map(ids.map((id) => [id, docs.get(id)!]));
    let killed = false;
    await bulkIndex(client!, index, batch, async (done) => {
      if (!killed && done >= DOCUMENTS / 4) {
        killed = true;
        serves[0]!.child.kill('SIGKILL');
      }
    });
    assert.ok(killed);
    const { indexed, failed, missing } = await account(client!, index, deadLetter, ids);
    assert.deepEqual(missing, [], 'every document is indexed or dead-lettered');
    assert.deepEqual([...failed.entries()], [], 'the surviving folio serve took over: nothing failed');
    assert.equal(indexed.size, DOCUMENTS);
    // The pipeline ran on all three nodes.
    const stats = await client!.nodes.stats({ metric: 'ingest' });
    const perNode = Object.values(stats.nodes).map((node) => node.ingest?.pipelines?.[index]?.count ?? 0);
    assert.equal(perNode.filter((count) => count > 0).length, 3, `ingest counts per node: ${perNode.join(', ')}`);
  });

  it('should lose nothing when one Elasticsearch node stops mid-run with a replica set', async () => {
    const { index, deadLetter } = await pipeline('node-stop', [serves[1]!.url]);
    const ids = [...docs.keys()].slice(DOCUMENTS);
    const batch = new Map(ids.map((id) => [id, docs.get(id)!]));
    let stopped = false;
    await bulkIndex(client!, index, batch, async (done) => {
      if (!stopped && done >= DOCUMENTS / 4) {
        stopped = true;
        process.kill(cluster!.pids![2]!, 'SIGTERM');
      }
    });
    assert.ok(stopped);
    const { indexed, failed, missing } = await account(client!, index, deadLetter, ids);
    assert.deepEqual(missing, [], 'every document is indexed or dead-lettered');
    for (const [id, reason] of failed) assert.match(reason, /folio/, `${id} was dead-lettered with a reason`);
    assert.equal(indexed.size + failed.size, DOCUMENTS);
    const health = await client!.cluster.health({ index });
    assert.equal(health.number_of_nodes, 2);
    assert.equal(health.unassigned_primary_shards ?? 0, 0, 'the replicas took over as primaries');
  });
});
