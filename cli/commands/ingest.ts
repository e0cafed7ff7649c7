import { join } from 'node:path';
import { SourceListing, sourcesFrom } from '../../connector/index.ts';
import { ConfigurationError } from '../../core/errors.ts';
// From the module itself, not the folder's index: the index would load the whole reading
// pipeline on this thread, which only hands documents to worker threads.
import type { Embedder } from '../../inference/embed/index.ts';
import { ingest } from '../../pipeline/run/ingest.ts';
import { createEsSink, createNdjsonSink } from '../../pipeline/sink/index.ts';
import { PIPELINE_FLAGS, parse, pipelineOptions } from '../options.ts';
import { Progress } from '../progress.ts';
import { SOURCE_FLAGS, SOURCE_USAGE, sourceOptions } from '../source-flags.ts';
import { EXIT_CODES_HELP, exitCode, formatSummary } from '../summary.ts';

export const INGEST_USAGE = `folio ingest <paths|urls|s3://bucket/prefix...> [--crawl] [--es URL] [--index NAME] [--out DIR] [options]

The main job. With --es (or ELASTICSEARCH_URL) chunks are indexed into Elasticsearch; without,
_bulk-ready NDJSON and chunk JSONL are written under --out. Every input ends indexed or recorded
as failed (failures.jsonl, or the folio-failures index); the summary says where, per reason.
A rerun skips unchanged documents (S3 objects by ETag, size and date, before downloading them),
and removes from the index, or from the NDJSON files, those gone from a folder, glob or bucket
prefix given (and files or URLs that are no longer there), unless --no-prune.

  --es URL             Elasticsearch URL (default: $ELASTICSEARCH_URL)
  --index NAME         chunk index (default folio-chunks)
  --out DIR            NDJSON output folder when no Elasticsearch is set (default ./folio-out)
  --embed MODE         local (bundled all-MiniLM-L6-v2), none, or an OpenAI-compatible
                       /v1/embeddings base URL (default: local)
  --embed-model NAME   model name for a remote embedding endpoint
  --engine E           auto (text layer, OCR where needed), text, paddle, onnx (default auto)
  --device D           cpu | webgpu | cuda for ONNX engines (default cpu)
  --password P         password for encrypted PDFs
  --max-tokens N       token budget per chunk (default 512)
  --no-prune           keep documents that are gone from their folder, glob or URL (default:
                       remove their chunks and records; never when a listing failed)
  --workers N          threads reading documents while this one embeds and indexes; 0 reads
                       them here (default: cores - 1, at least 2, at most 4; 0 on one core).
                       Each costs ~100 MB and start-up; worth it with cores to spare
${SOURCE_USAGE}
  -q, --quiet          no progress or summary

${EXIT_CODES_HELP}`;

const INGEST_FLAGS = {
  ...PIPELINE_FLAGS,
  ...SOURCE_FLAGS,
  es: { type: 'string' },
  index: { type: 'string', default: 'folio-chunks' },
  out: { type: 'string', default: 'folio-out' },
  embed: { type: 'string', default: 'local' },
  'embed-model': { type: 'string' },
  prune: { type: 'boolean', default: true },
} as const;

async function createEmbedder(mode: string, model: string | undefined): Promise<Embedder | undefined> {
  if (mode === 'none') return undefined;
  const embed = await import('../../inference/embed/index.ts');
  // On a thread of its own: onnxruntime holds the thread that runs a pass, and this one chunks and writes.
  if (mode === 'local') return embed.createLocalEmbedder({ worker: true });
  if (/^https?:\/\//.test(mode)) {
    if (!model) throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', '`--embed URL` needs `--embed-model NAME`');
    return embed.createRemoteEmbedder({ url: mode, model, apiKey: process.env.FOLIO_EMBED_API_KEY });
  }
  throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `Expected \`--embed\` to be local, none or an http(s) URL, got \`${mode}\``);
}

export async function ingestCommand(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parse(argv, INGEST_FLAGS);
  if (values.help) {
    console.log(INGEST_USAGE);
    return 0;
  }
  if (positionals.length === 0) throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `ingest needs at least one input path or URL\n\n${INGEST_USAGE}`);
  const { options, close } = await pipelineOptions(values);
  const embedder = await createEmbedder(values.embed, values['embed-model']);
  const url = values.es ?? process.env.ELASTICSEARCH_URL;
  // Created once the worker threads are spawned: loading the Elasticsearch client takes this
  // thread ~0.2 s, which the workers' start should not wait for. They then load their modules
  // while the sink connects and installs its indices.
  let sinkReady: ReturnType<typeof createEsSink> | undefined;
  const openSink = (): ReturnType<typeof createEsSink> =>
    (sinkReady ??= url ? createEsSink({ url, index: values.index, dims: embedder?.dims, fallbackFile }) : createNdjsonSink({ outDir: values.out, sync: true }));
  const progress = values.quiet ? undefined : new Progress();
  const listing = new SourceListing();
  const fallbackFile = join(values.out, 'failures.jsonl');
  let summary;
  let stats;
  try {
    // Asked before an S3 object is downloaded; opens the sink early, which a bucket's run needs anyway.
    const knownVersion = async (id: string): Promise<string | undefined> => (await openSink()).recordedVersion?.(id);
    summary = await ingest(sourcesFrom(positionals, { exclude: [values.out], listing, knownVersion, ...sourceOptions(values) }), {
      ...options,
      listing,
      prune: values.prune,
      sink: openSink,
      embedder,
      countTokens: embedder ? (text) => embedder.countTokens(text) : undefined,
      // A chunk longer than the embedding model reads would be embedded by its head only.
      maxTokens: embedder ? Math.min(options.maxTokens ?? embedder.maxTokens, embedder.maxTokens) : options.maxTokens,
      onPage: (event) => progress?.page(event.source),
      onDocument: () => progress?.document(),
    });
  } finally {
    // Flush what was written so far even when the run stops early: nothing silently lost. A sink
    // that could not be created (or was never opened) has nothing to flush; `ingest` rejected with its error.
    const sink = await sinkReady?.catch(() => undefined);
    try {
      stats = await sink?.close();
    } finally {
      progress?.done();
      await close();
      await embedder?.close();
    }
    if (summary && stats && !values.quiet) {
      const where = url ? `index:     ${values.index} at ${url}` : `output:    ${values.out}/ (bulk.ndjson, chunks.jsonl, failures.jsonl)`;
      const indexing = `indexed:   ${stats.indexed} chunks, ${stats.failed} failed, ${stats.retries} retries`;
      const fallback = url && stats.failuresAt[fallbackFile] !== undefined ? [`fallback:  ${fallbackFile} (what the cluster could not take)`] : [];
      console.error(formatSummary(summary, { extra: [where, indexing, ...fallback], failuresAt: stats.failuresAt, dropped: stats.dropped, lost: stats.lost }));
    }
  }
  return exitCode(summary, stats);
}
