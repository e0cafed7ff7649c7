/**
 * `folio bench plugin`: the same documents through the Elasticsearch ingest pipeline (bulk with
 * `?pipeline=`, the `folio` processor calling a `folio serve` with the paddle engine) and through
 * `folio ingest` (engine auto, paddle in process), in one run on one machine, rounds interleaved;
 * text-layer documents and scans measured separately; with `--nodes 3` the pipeline path again on
 * a 3-node cluster. Pages/s from start to refreshed index; medians over the rounds.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@elastic/elasticsearch';
import { folioPipeline, installIngestedTemplate } from '../../mappings/index.ts';
import { clusterLayout, esLayout, startElasticsearch, stopElasticsearch } from '../../scripts/elasticsearch/index.ts';
import { startFolioServe } from '../common/folio-serve.ts';
import { machineInfo, machineMarkdown, markdownTable, median, round } from '../common/index.ts';
import { ingestOnce } from '../textlayer/ingest.ts';
import { type LoadResult, loadRun } from './load.ts';
import { type MemoryResult, memoryRun } from './memory.ts';

export interface PluginBenchOptions {
  readonly argv: readonly string[];
  readonly resultsDir: string;
}

interface PathResult {
  readonly path: 'pipeline' | 'ingest' | 'pipeline-3-nodes';
  readonly set: string;
  readonly pages: number;
  readonly documents: number;
  readonly failed: number;
  readonly msRuns: readonly number[];
  readonly pagesPerSecond: number;
}

const SETS = { text: '../shared/data/docling-dev/pdf', scans: '../shared/data/docling-dev/ocr' } as const;

async function files(dir: string): Promise<string[]> {
  return (await readdir(dir))
    .filter((name) => /\.(pdf|png|jpe?g|tiff?)$/i.test(name))
    .sort()
    .map((name) => join(dir, name));
}

/** One timed run of the pipeline path: read, base64, bulk (4 documents a request, 4 requests in flight), refresh; then count pages. */
async function pipelineOnce(client: Client, serve: string, paths: readonly string[], run: string): Promise<{ ms: number; pages: number; failed: number }> {
  const index = `folio-bench-plugin-${run}-${Date.now().toString(36)}`;
  const deadLetter = `${index}-failed`;
  await client.ingest.putPipeline({
    id: index,
    ...folioPipeline({
      servers: [serve],
      deadLetterIndex: deadLetter,
      embed: false,
      processor: { timeout: '600s', properties: ['markdown', 'pages', 'chunks'] },
    }),
  });
  await installIngestedTemplate(client, { name: index, indexPatterns: [index], defaultPipeline: index });
  await client.indices.create({ index });
  try {
    const began = performance.now();
    const queue = paths.map((path, i) => ({ path, id: String(i) }));
    await Promise.all(
      [0, 1, 2, 3].map(async () => {
        for (let batch = queue.splice(0, 4); batch.length > 0; batch = queue.splice(0, 4)) {
          const operations = [];
          for (const { path, id } of batch) operations.push({ index: { _index: index, _id: id } }, { data: (await readFile(path)).toString('base64') });
          const response = await client.bulk({ operations });
          if (response.errors) throw new Error(`bulk refused: ${JSON.stringify(response.items.find((i) => i.index?.error))}`);
        }
      }),
    );
    await client.indices.refresh({ index: [index, deadLetter], ignore_unavailable: true });
    const ms = performance.now() - began;
    const counted = await client.search({ index, size: 0, aggs: { pages: { value_count: { field: 'folio.pages.page_number' } } } });
    const failed = await client.count({ index: deadLetter }, { ignore: [404] });
    return { ms, pages: (counted.aggregations?.['pages'] as { value: number } | undefined)?.value ?? 0, failed: failed.count ?? 0 };
  } finally {
    await client.indices.delete({ index: [index, deadLetter], ignore_unavailable: true });
    await client.indices.deleteIndexTemplate({ name: index }, { ignore: [404] });
    await client.ingest.deletePipeline({ id: index }, { ignore: [404] });
  }
}

function result(path: PathResult['path'], set: string, documents: number, runs: readonly { ms: number; pages: number; failed: number }[]): PathResult {
  const msRuns = runs.map((r) => round(r.ms, 0));
  const pages = runs[0]?.pages ?? 0;
  return { path, set, pages, documents, failed: runs[0]?.failed ?? 0, msRuns, pagesPerSecond: round(pages / (median(msRuns) / 1000), 2) };
}

export async function runPluginBench(options: Readonly<PluginBenchOptions>): Promise<{ results: PathResult[] }> {
  const { values } = parseArgs({
    args: [...options.argv],
    options: {
      es: { type: 'string' },
      rounds: { type: 'string', default: '2' },
      nodes: { type: 'string', default: '1' },
      load: { type: 'string', default: '200' },
      memory: { type: 'boolean', default: false },
      'memory-pages': { type: 'string', default: '2000' },
    },
    strict: true,
  });
  const rounds = Number(values.rounds);
  // `--memory --rounds 0 --load 0` measures folio serve alone: no Elasticsearch, no shared server.
  const memoryOnly = rounds === 0 && Number(values.load) === 0 && Number(values.nodes) <= 1;
  const es = memoryOnly ? 'http://127.0.0.1:9' : (values.es ?? (await startElasticsearch({ log: (line) => console.error(`es: ${line}`) })).url);
  const client = new Client({ node: es, requestTimeout: 900_000 });
  const serve = memoryOnly ? undefined : await startFolioServe();
  const results: PathResult[] = [];
  let load: LoadResult | undefined;
  let memory: MemoryResult | undefined;
  try {
    if (values.memory) {
      memory = await memoryRun({ longPages: Number(values['memory-pages']), largeDocuments: 8, largePages: 100 });
      console.error(`plugin bench: memory ${JSON.stringify(memory)}`);
    }
    if (Number(values.load) > 0) {
      // Its own folio serve at its defaults, so its memory is the load's alone.
      const fresh = await startFolioServe([]);
      try {
        load = await loadRun(client, fresh.url, fresh.child.pid!, { documents: Number(values.load) });
        console.error(`plugin bench: load ${JSON.stringify(load)}`);
      } finally {
        fresh.child.kill('SIGTERM');
      }
    }
    for (const [set, dir] of rounds > 0 ? Object.entries(SETS) : []) {
      const paths = await files(dir);
      const pipeline: { ms: number; pages: number; failed: number }[] = [];
      const ingest: { ms: number; pages: number; failed: number }[] = [];
      for (let round = 0; round < rounds; round++) {
        // Interleaved, alternating which goes first: drift on a shared machine hits both alike.
        const order = round % 2 === 0 ? ['pipeline', 'ingest'] : ['ingest', 'pipeline'];
        for (const path of order) {
          if (path === 'pipeline') pipeline.push(await pipelineOnce(client, serve!.url, paths, `${set}-${round}`));
          else ingest.push(await ingestOnceAuto(paths, es));
          console.error(`plugin bench: ${set} ${path} round ${round + 1}: ${JSON.stringify((path === 'pipeline' ? pipeline : ingest).at(-1))}`);
        }
      }
      results.push(result('pipeline', set, paths.length, pipeline), result('ingest', set, paths.length, ingest));
    }
    if (Number(values.nodes) > 1) {
      const cluster = await startElasticsearch({ nodes: Number(values.nodes), heapMb: 256, log: (line) => console.error(`es: ${line}`) });
      const clusterClient = new Client({ nodes: [...cluster.urls], requestTimeout: 900_000 });
      try {
        for (const [set, dir] of Object.entries(SETS)) {
          const paths = await files(dir);
          const runs = [];
          for (let round = 0; round < rounds; round++) runs.push(await pipelineOnce(clusterClient, serve!.url, paths, `cluster-${set}-${round}`));
          results.push(result('pipeline-3-nodes', set, paths.length, runs));
        }
      } finally {
        await clusterClient.close();
        if (cluster.started) await stopElasticsearch({ layout: clusterLayout(esLayout()) });
      }
    }
  } finally {
    serve?.child.kill('SIGTERM');
    await client.close();
  }
  await write(options.resultsDir, results, rounds, load, memory);
  return { results };
}

/** `folio ingest --engine auto` (paddle where the page needs OCR), as `bench textlayer` runs it. */
async function ingestOnceAuto(paths: readonly string[], es: string): Promise<{ ms: number; pages: number; failed: number }> {
  const sample = await ingestOnce(paths, { es, timeoutMs: 1_800_000, engine: 'auto' });
  return { ms: sample.ms, pages: sample.pages, failed: sample.failures };
}

async function write(
  dir: string,
  results: readonly PathResult[],
  rounds: number,
  load: LoadResult | undefined,
  memory: MemoryResult | undefined,
): Promise<void> {
  const machine = machineInfo();
  const ratio = (set: string): number | undefined => {
    const p = results.find((r) => r.path === 'pipeline' && r.set === set);
    const i = results.find((r) => r.path === 'ingest' && r.set === set);
    return p && i ? round(i.pagesPerSecond / p.pagesPerSecond, 2) : undefined;
  };
  const json = {
    suite: 'plugin',
    rounds,
    results,
    ratios: { text: ratio('text'), scans: ratio('scans') },
    load,
    memory,
    machine,
    at: new Date().toISOString(),
  };
  await mkdir(dir, { recursive: true });
  // The load and memory parts alone (`--rounds 0`) go beside the comparison, not over it.
  const name = rounds > 0 ? 'plugin' : load === undefined ? 'serve-memory' : 'plugin-load';
  await writeFile(join(dir, `${name}.json`), `${JSON.stringify(json, null, 2)}\n`);
  const rows = results.map((r) => [r.set, r.path, String(r.documents), String(r.pages), String(r.failed), r.msRuns.join(', '), r.pagesPerSecond.toFixed(2)]);
  const comparison = [
    "The same documents, same machine, same run, rounds interleaved. *pipeline*: bulk with the index's default pipeline (the `folio` processor, one `folio serve --engine paddle`), 4 documents a request, 4 requests in flight, until the index is refreshed. *ingest*: `folio ingest --engine auto --embed none` as a child process, start-up to exit (paddle in process where a page needs OCR), so its figure includes its start-up (module loading, engine creation, index setup), while the pipeline's `folio serve` is already running, as it is in production. No embeddings on either path. Medians of few rounds on a shared 2-core machine: read the ratios, not the absolute rates.",
    '',
    markdownTable(['set', 'path', 'documents', 'pages', 'failed', 'ms per round', 'pages/s (median)'], rows),
    '',
    `Time per page, pipeline ÷ ingest (target ≤ 1.5): text layer ${ratio('text') ?? 'n/a'}, scans ${ratio('scans') ?? 'n/a'}.`,
    '',
  ];
  const md = [
    rounds > 0 ? '# Elasticsearch ingest plugin vs `folio ingest`' : '# Elasticsearch ingest plugin under load, and `folio serve` memory',
    '',
    ...(rounds > 0 ? comparison : []),
    ...(load === undefined
      ? []
      : [
          '## Under load, both sides at their defaults',
          '',
          `${load.documents} documents (${load.scans} scans, the rest one-page born-digital PDFs) through \`_bulk?pipeline=\` in bulks of 50, 4 in flight, one \`folio serve\` at its defaults (8 converting, 64 queued), the processor at its defaults (16 in flight per node, lowered to what the server advertises; 429s waited out for up to 5 min):`,
          '',
          markdownTable(
            ['indexed', 'dead-lettered (target 0)', 'missing', 'pages', 'ms', 'pages/s', 'serve RSS start / peak / idle (MiB)'],
            [
              [
                String(load.indexed),
                String(load.deadLettered),
                String(load.missing),
                String(load.pages),
                String(load.ms),
                load.pagesPerSecond.toFixed(2),
                `${load.rssMb.start} / ${load.rssMb.peak} / ${load.rssMb.idle}`,
              ],
            ],
          ),
          '',
          ...(load.reasons.length > 0 ? ['Dead letters and refusals (first few):', '', ...load.reasons.map((r) => `- ${r}`), ''] : []),
        ]),
    ...(memory === undefined
      ? []
      : [
          '## folio serve memory after large documents (`--memory`)',
          '',
          `RSS in MiB of a \`folio serve --embed none\`: at start, warm (after a 2-page document), peak and idle (75 s after, past serve's 60 s --idle-release) around one ${memory.longPages}-page born-digital document, then around ${memory.largeDocuments} documents of ${memory.largePages} pages at once. Target: idle within 20% of warm.`,
          '',
          markdownTable(
            [
              'start',
              'warm',
              `peak, ${memory.longPages} pages`,
              'idle after',
              `peak, ${memory.largeDocuments}×${memory.largePages} pages`,
              'idle after',
              'idle ÷ warm',
            ],
            [
              [
                memory.rssMb.start,
                memory.rssMb.warm,
                memory.rssMb.peakLong,
                memory.rssMb.idleLong,
                memory.rssMb.peakLarge,
                memory.rssMb.idleLarge,
                memory.idleRatio,
              ].map(String),
            ],
          ),
          '',
        ]),
    'Command: `npx folio bench plugin [--rounds N] [--nodes 3] [--load N] [--memory [--memory-pages N]] [--es URL]` (`--rounds 0 --load 200`: the load part alone). Sets: `../shared/data/docling-dev/pdf` (text layer) and `../shared/data/docling-dev/ocr` (scans).',
    '',
    machineMarkdown(machine),
    '',
  ].join('\n');
  await writeFile(join(dir, `${name}.md`), md);
}
