/**
 * `npx folio bench retrieval`: retrieval quality (recall@k and MRR for BM25, kNN and hybrid, in
 * one run, over the hand-written question set) and embedding throughput (chunks/s per device).
 * Results go to `bench/results/retrieval.md` and `.json`.
 *
 * Flags (after `folio bench retrieval`):
 *   --es URL              Elasticsearch (default ELASTICSEARCH_URL)
 *   --pdf-dir DIR         corpus (default ../shared/data/docling-dev/pdf)
 *   --k N                 cut-off for recall (default 5)
 *   --devices LIST        devices for the throughput run, comma-separated (default cpu)
 *   --batch-size N        embedding batch size (default 32)
 *   --results-dir DIR     where retrieval.md/.json go (default: the caller's resultsDir, bench/results)
 *   --throughput-only     skip the quality run (no Elasticsearch needed) and write
 *                         retrieval-throughput.md/.json instead, e.g. on the GPU machine:
 *                         npx folio bench retrieval --devices cpu,webgpu --throughput-only
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigurationError } from '../../core/errors.ts';
import type { Chunk } from '../../core/types.ts';
import type { Embedder } from '../../inference/embed/index.ts';
import { createLocalEmbedder, DEFAULT_MODEL_DIR, readEmbedModelConfig } from '../../inference/embed/index.ts';
import type { Device } from '../../inference/index.ts';
import { DEVICES } from '../../inference/index.ts';
import type { ChunkSource, SearchMode } from '../../retrieval/index.ts';
import { hybridSearch, withClient } from '../../retrieval/index.ts';
import { machineInfo, machineMarkdown } from '../common/index.ts';
import { indexCorpus, loadCorpus } from './corpus.ts';
import type { RankingScores } from './metrics.ts';
import { firstRelevantRank, rankingScores } from './metrics.ts';
import type { RetrievalQuestion } from './questions.ts';
import { QUESTIONS } from './questions.ts';
import { retrievalMarkdown } from './report.ts';
import type { ThroughputResult } from './throughput.ts';
import { measureThroughput } from './throughput.ts';

export interface RetrievalBenchOptions {
  /** Arguments after `folio bench retrieval` (see the flags above). @default [] */
  readonly argv?: readonly string[];
  /** Where `retrieval.md` and `retrieval.json` go. @default 'bench/results' */
  readonly resultsDir?: string;
  /** Replaces the pipeline as the corpus's chunk source (tests). @default the pipeline, text layer only */
  readonly chunks?: ChunkSource;
  /** Replaces the question set. @default QUESTIONS */
  readonly questions?: readonly RetrievalQuestion[];
}

export interface ModeResult extends RankingScores {
  readonly mode: SearchMode;
  readonly lexical: RankingScores;
  readonly paraphrase: RankingScores;
  /** Per question: 1-based rank of the first relevant hit among the top 10, or null. */
  readonly ranks: readonly (number | null)[];
}

export interface RetrievalBenchResult {
  readonly k: number;
  readonly corpus?: { readonly documents: number; readonly chunks: number };
  readonly quality?: readonly ModeResult[];
  readonly throughput: readonly ThroughputResult[];
  readonly markdownPath: string;
}

const MODES: readonly SearchMode[] = ['bm25', 'knn', 'hybrid'];

function flags(argv: readonly string[]) {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      es: { type: 'string' },
      'pdf-dir': { type: 'string', default: '../shared/data/docling-dev/pdf' },
      k: { type: 'string', default: '5' },
      devices: { type: 'string', default: 'cpu' },
      'batch-size': { type: 'string', default: '32' },
      'throughput-only': { type: 'boolean', default: false },
      'results-dir': { type: 'string' },
    },
  });
  const k = Number(values.k);
  const batchSize = Number(values['batch-size']);
  if (!Number.isInteger(k) || k < 1)
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `Expected \`--k\` to be an integer from 1 and up, got \`${values.k}\``);
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `Expected \`--batch-size\` to be an integer from 1 and up, got \`${values['batch-size']}\``);
  const devices = values.devices
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean) as Device[];
  const bad = devices.find((d) => !DEVICES.includes(d));
  if (bad !== undefined) throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `Expected \`--devices\` to list ${DEVICES.join(', ')}, got \`${bad}\``);
  return {
    es: values.es ?? process.env['ELASTICSEARCH_URL'],
    pdfDir: resolve(values['pdf-dir']),
    k,
    batchSize,
    devices,
    throughputOnly: values['throughput-only'],
    resultsDir: values['results-dir'],
  };
}

async function quality(
  url: string | undefined,
  corpus: readonly Chunk[],
  questions: readonly RetrievalQuestion[],
  k: number,
  embedder: Embedder,
): Promise<ModeResult[]> {
  const index = `folio-bench-retrieval-${randomBytes(4).toString('hex')}`;
  const vectors = await embedder.embed(corpus.map((c) => c.text));
  return withClient({ url }, async (client) => {
    await indexCorpus(client, index, corpus, vectors, embedder);
    try {
      const results: ModeResult[] = [];
      for (const mode of MODES) {
        const ranks: (number | undefined)[] = [];
        // Ten deep so MRR sees ranks past k; recall counts only the top k.
        for (const q of questions)
          ranks.push(firstRelevantRank(await hybridSearch({ client, index, query: q.question, k: Math.max(10, k), mode, embedder }), q.relevant));
        const pick = (style: RetrievalQuestion['style']) =>
          rankingScores(
            ranks.filter((_, i) => questions[i]!.style === style),
            k,
          );
        results.push({ mode, ...rankingScores(ranks, k), lexical: pick('lexical'), paraphrase: pick('paraphrase'), ranks: ranks.map((r) => r ?? null) });
      }
      return results;
    } finally {
      await client.indices.delete({ index }, { ignore: [404] });
    }
  });
}

/**
 * @example
 * await runRetrievalBench({ argv: ['--devices', 'cpu'], resultsDir: 'bench/results' });
 */
export async function runRetrievalBench(options: Readonly<RetrievalBenchOptions> = {}): Promise<RetrievalBenchResult> {
  const { argv = [], chunks, questions = QUESTIONS } = options;
  const { es, pdfDir, k, batchSize, devices, throughputOnly, resultsDir: resultsFlag } = flags(argv);
  const resultsDir = resultsFlag ?? options.resultsDir ?? 'bench/results';
  if (!throughputOnly && !es) {
    throw new ConfigurationError(
      'FOLIO_NO_ELASTICSEARCH',
      'bench retrieval needs Elasticsearch for the quality run: pass --es URL, set ELASTICSEARCH_URL, or use --throughput-only',
    );
  }
  const embedder = await createLocalEmbedder({ batchSize });
  let corpus: Chunk[];
  let qualityResults: ModeResult[] | undefined;
  try {
    corpus = await loadCorpus(pdfDir, embedder, chunks);
    if (corpus.length === 0) throw new ConfigurationError('FOLIO_BENCH_EMPTY', `no chunks came out of \`${pdfDir}\``);
    qualityResults = throughputOnly ? undefined : await quality(es, corpus, questions, k, embedder);
  } finally {
    await embedder.close();
  }
  const texts = corpus.map((c) => c.text);
  const loadAverage = os.loadavg()[0] ?? 0;
  const throughput: ThroughputResult[] = [];
  for (const device of devices) throughput.push(await measureThroughput({ texts, device, batchSize }));

  const corpusInfo = { documents: new Set(corpus.map((c) => c.docId)).size, chunks: corpus.length };
  await mkdir(resultsDir, { recursive: true });
  // A throughput-only run (the GPU machine) must not overwrite the quality figures.
  const name = throughputOnly ? 'retrieval-throughput' : 'retrieval';
  const markdownPath = join(resultsDir, `${name}.md`);
  const machine = machineInfo();
  const config = await readEmbedModelConfig(DEFAULT_MODEL_DIR);
  const model = `${config.name} (${config.dtype} ONNX, ${config.dims} dims, ${config.maxTokens} tokens)`;
  await writeFile(
    markdownPath,
    retrievalMarkdown({ k, corpus: corpusInfo, questions, quality: qualityResults, throughput, machine: machineMarkdown(machine), pdfDir, model, loadAverage }),
  );
  await writeFile(
    join(resultsDir, `${name}.json`),
    `${JSON.stringify({ machine, model, loadAverage, k, corpus: corpusInfo, quality: qualityResults, throughput }, null, 2)}\n`,
  );
  for (const m of qualityResults ?? []) console.log(`${m.mode.padEnd(7)} recall@${k} ${m.recallAtK.toFixed(3)}  MRR ${m.mrr.toFixed(3)}`);
  for (const t of throughput)
    console.log(`${t.device.padEnd(7)} ${t.chunksPerSecond === undefined ? `unavailable: ${t.error}` : `${t.chunksPerSecond.toFixed(1)} chunks/s`}`);
  console.log(`wrote ${markdownPath}`);
  return { k, corpus: corpusInfo, ...(qualityResults ? { quality: qualityResults } : {}), throughput, markdownPath };
}

export type { RankingScores } from './metrics.ts';
export { firstRelevantRank, rankingScores } from './metrics.ts';
export type { RetrievalQuestion } from './questions.ts';
export { QUESTIONS } from './questions.ts';
export type { ThroughputOptions, ThroughputResult } from './throughput.ts';
export { measureThroughput } from './throughput.ts';
