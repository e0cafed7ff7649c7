/**
 * The load part of `folio bench plugin`: N mixed documents (born-digital one-page PDFs and
 * scans) through `_bulk?pipeline=` with the processor and `folio serve` both at their defaults,
 * bulks sent together as a client would; then where every document ended (indexed,
 * dead-lettered with its reason, missing) and `folio serve`'s resident memory at start, at its
 * peak and once idle again (sampled from /proc).
 */
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@elastic/elasticsearch';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { folioPipeline, installPluginIndices } from '../../mappings/index.ts';

export interface LoadResult {
  readonly documents: number;
  readonly scans: number;
  readonly indexed: number;
  readonly deadLettered: number;
  readonly missing: number;
  /** The first few dead-letter reasons. */
  readonly reasons: readonly string[];
  readonly ms: number;
  readonly pages: number;
  readonly pagesPerSecond: number;
  readonly rssMb: { readonly start: number; readonly peak: number; readonly idle: number };
}

/** Resident memory of `pid` in MiB, from /proc (Linux). */
export async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function onePagePdf(n: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([400, 300]);
  page.drawText(`Report ${n}`, { x: 40, y: 250, size: 18, font });
  page.drawText(`Shipment ${n} left the warehouse with ${n * 7} parcels.`, { x: 40, y: 200, size: 10, font });
  return Buffer.from(await doc.save());
}

/**
 * Run `documents` (every `scanEvery`-th a scan) through a pipeline at its defaults against
 * `serveUrl`, whose process is `servePid`.
 */
export async function loadRun(
  client: Client,
  serveUrl: string,
  servePid: number,
  options: Readonly<{ documents: number; scanEvery?: number; bulkSize?: number; inFlight?: number }>,
): Promise<LoadResult> {
  const { documents, scanEvery = 5, bulkSize = 50, inFlight = 4 } = options;
  const index = `folio-bench-load-${Date.now().toString(36)}`;
  const deadLetter = `${index}-failed`;
  await client.ingest.putPipeline({ id: index, ...folioPipeline({ servers: [serveUrl], deadLetterIndex: deadLetter, embed: false }) });
  await installPluginIndices(client, { index, deadLetterIndex: deadLetter });
  const scan = await readFile('examples/docs/scanned-memo.png');
  const ids = Array.from({ length: documents }, (_, n) => `doc-${n}`);
  const bodies = new Map<string, string>();
  for (let n = 0; n < documents; n++) bodies.set(ids[n]!, (n % scanEvery === 0 ? scan : await onePagePdf(n)).toString('base64'));

  const start = await rssMb(servePid);
  let peak = start;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await rssMb(servePid));
      await sleep(250);
    }
  })();
  const refused: string[] = [];
  const began = performance.now();
  try {
    const queue = [...ids];
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        for (let batch = queue.splice(0, bulkSize); batch.length > 0; batch = queue.splice(0, bulkSize)) {
          const response = await client.bulk({
            pipeline: index,
            operations: batch.flatMap((id) => [{ index: { _index: index, _id: id } }, { data: bodies.get(id) }]),
          });
          for (const item of response.items) if (item.index?.error) refused.push(`${item.index._id}: ${item.index.error.type} ${item.index.error.reason}`);
        }
      }),
    );
    await client.indices.refresh({ index: [index, deadLetter] });
    const ms = performance.now() - began;
    sampling = false;
    await sampler;
    // Idle: past folio serve's --idle-release (60 s), the figure a long-running server sits at.
    await sleep(75_000);
    const idle = await rssMb(servePid);
    const found = await client.mget<{ folio?: { pages?: unknown[] } }>({ index, ids });
    const indexedDocs = found.docs.filter((d) => 'found' in d && d.found);
    const pages = indexedDocs.reduce((sum, d) => sum + ((d as { _source?: { folio?: { pages?: unknown[] } } })._source?.folio?.pages?.length ?? 0), 0);
    const dead = await client.search<{ folio_failure?: { message?: string } }>({ index: deadLetter, size: 10 });
    const deadCount = (await client.count({ index: deadLetter })).count;
    const reasons = [...refused.slice(0, 5), ...dead.hits.hits.map((h) => `${h._id}: ${h._source?.folio_failure?.message ?? ''}`)];
    return {
      documents,
      scans: Math.ceil(documents / scanEvery),
      indexed: indexedDocs.length,
      deadLettered: deadCount,
      missing: documents - indexedDocs.length - deadCount,
      reasons,
      ms: Math.round(ms),
      pages,
      pagesPerSecond: Math.round((pages / (ms / 1000)) * 100) / 100,
      rssMb: { start, peak, idle },
    };
  } finally {
    sampling = false;
    await client.indices.delete({ index: [index, deadLetter], ignore_unavailable: true });
    await client.indices.deleteIndexTemplate({ name: index }, { ignore: [404] });
    await client.ingest.deletePipeline({ id: index }, { ignore: [404] });
  }
}
