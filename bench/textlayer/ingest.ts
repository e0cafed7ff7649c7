/**
 * The `ingest-*` phases: `folio ingest --engine text --embed none` run as a user runs it, a child
 * process timed from spawn to exit — start-up, module loading, worker threads, index creation,
 * the last flush and the refresh all count. Into Elasticsearch the indices are fresh per run (a
 * first run: nothing is skipped as unchanged) and deleted afterwards, templates included; the
 * server's own CPU time over the run is measured beside Folio's when it runs on this machine.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { elasticsearchMeter } from '../common/es-process.ts';
import { runChild } from '../common/tools.ts';

const FOLIO = fileURLToPath(new URL('../../bin/folio.ts', import.meta.url));

export interface IngestSample {
  readonly ms: number;
  readonly pages: number;
  /** Chunks written (the summary's `chunks:` line). */
  readonly chunks?: number;
  readonly failures: number;
  readonly rss?: number;
  /** CPU seconds of the folio process, all threads. */
  readonly cpuSeconds?: number;
  /** CPU seconds Elasticsearch used during the run (its idle housekeeping included). */
  readonly esCpuSeconds?: number;
}

export interface IngestOnceOptions {
  /** Elasticsearch URL; NDJSON files in a temporary folder when absent. */
  readonly es?: string;
  /** `--workers`; the command's own default when absent. */
  readonly workers?: number;
  readonly timeoutMs: number;
  /** `--engine`. @default 'text' */
  readonly engine?: string;
  /** `--embed`: `none`, or `local` for the default embedding model. @default 'none' */
  readonly embed?: string;
}

/** What the run's summary (stderr) says: pages read and failure records by code. */
export function parseSummary(stderr: string): { pages: number; failures: number; chunks?: number } | undefined {
  const pages = /^pages:\s+(\d+)/m.exec(stderr);
  if (!pages) return undefined;
  const codes = /^failures:\s+(.*)$/m.exec(stderr)?.[1] ?? '';
  const failures = [...codes.matchAll(/\b[A-Z_]+ (\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
  const chunks = /^chunks:\s+(\d+)/m.exec(stderr);
  return { pages: Number(pages[1]), failures, ...(chunks ? { chunks: Number(chunks[1]) } : {}) };
}

/**
 * One timed `folio ingest` over `files`.
 *
 * @example
 * const sample = await ingestOnce(['a.pdf'], { es: 'http://127.0.0.1:9200', timeoutMs: 600_000 })
 */
export async function ingestOnce(files: readonly string[], options: Readonly<IngestOnceOptions>): Promise<IngestSample> {
  const { es, workers, timeoutMs, engine = 'text', embed = 'none' } = options;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-ingest-'));
  const index = `folio-bench-${process.pid}-${Date.now()}`;
  // With --es, --out only holds the fallback file for failure records the cluster refuses.
  const target = es ? ['--es', es, '--index', index, '--out', dir] : ['--out', dir];
  const meter = es ? await elasticsearchMeter(es) : undefined;
  const esBefore = await meter?.cpuSeconds();
  try {
    const args = [FOLIO, 'ingest', ...files, '--engine', engine, '--embed', embed, ...(workers === undefined ? [] : ['--workers', String(workers)]), ...target];
    // An empty ELASTICSEARCH_URL keeps the NDJSON run from indexing into the bench's own cluster.
    const run = await runChild({ command: process.execPath, args, measureMemory: true, timeoutMs, captureStdout: false, env: { ELASTICSEARCH_URL: es ?? '' } });
    const esAfter = await meter?.cpuSeconds();
    if (run.code === 124) throw new Error(`timed out after ${timeoutMs / 1000} s`);
    const summary = parseSummary(run.stderr);
    // Exit 1 says some inputs failed and were recorded (the corpus holds an encrypted PDF): still a run.
    if ((run.code !== 0 && run.code !== 1) || summary === undefined)
      throw new Error(`folio ingest failed (exit ${run.code}): ${run.stderr.trim().split('\n').slice(-4).join(' | ')}`);
    return {
      ms: run.wallMs,
      ...summary,
      ...(run.peakRssMiB === undefined ? {} : { rss: run.peakRssMiB }),
      ...(run.cpuSeconds === undefined ? {} : { cpuSeconds: run.cpuSeconds }),
      ...(esBefore === undefined || esAfter === undefined ? {} : { esCpuSeconds: Math.round((esAfter - esBefore) * 100) / 100 }),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
    if (es) await deleteBenchIndices(es, index);
  }
}

/** The run's three indices and the templates the sink installed for them. */
async function deleteBenchIndices(es: string, index: string): Promise<void> {
  const base = es.replace(/\/$/, '');
  const names = [index, `${index}-documents`, `${index}-failures`];
  await fetch(`${base}/${names.join(',')}?ignore_unavailable=true`, { method: 'DELETE' }).catch(() => undefined);
  await fetch(`${base}/_index_template/${names.map((n) => `${n}-template`).join(',')}`, { method: 'DELETE' }).catch(() => undefined);
}
