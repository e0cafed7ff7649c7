/**
 * The measurements of `folio bench sources`: the same text-layer PDFs ingested from disk and from
 * a local S3-compatible server (s3proxy, filesystem backend) in one run, rounds interleaved; then
 * a bucket of small objects ingested once and re-synced unchanged, with the object downloads of
 * the re-sync counted by a pass-through proxy.
 */
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { startS3Server } from '../../scripts/s3proxy.ts';
import { runChild } from '../common/tools.ts';
import { startCountingProxy } from './counting-proxy.ts';

export interface SourcesBenchOptions {
  /** Folders whose `.pdf` files are the corpus (text-layer PDFs). */
  readonly dirs: readonly string[];
  /** Rounds of each ingest (disk and S3 alternate). */
  readonly rounds: number;
  /** Objects in the re-sync bucket. */
  readonly keys: number;
}

export interface IngestRun {
  readonly source: 'disk' | 's3';
  readonly round: number;
  readonly documents: number;
  readonly pages: number;
  /** Wall time of the `folio ingest` process, start-up included, in s. */
  readonly wallS: number;
  /** The run's own duration from its summary (`speed: … over N s`), in s. */
  readonly runS: number;
  readonly code: number;
}

export interface ResyncRun {
  readonly phase: 'first' | 'resync';
  readonly documents: number;
  readonly unchanged: number;
  readonly downloads: number;
  readonly listings: number;
  readonly wallS: number;
  /** The run's own duration from its summary, in s. */
  readonly runS: number;
  readonly code: number;
}

export interface SourcesBenchResult {
  readonly files: number;
  readonly bytes: number;
  readonly ingest: readonly IngestRun[];
  readonly resync: readonly ResyncRun[];
}

const FOLIO = ['bin/folio.ts', 'ingest'];
const FLAGS = ['--engine', 'text', '--embed', 'none', '--workers', '0'];

export async function runSourcesSet(options: Readonly<SourcesBenchOptions>): Promise<SourcesBenchResult> {
  const work = await mkdtemp(join(tmpdir(), 'folio-bench-sources-'));
  const server = await startS3Server();
  const proxy = await startCountingProxy(server.endpoint);
  const client = server.client();
  try {
    const disk = join(work, 'disk');
    await mkdir(disk);
    const files: string[] = [];
    for (const dir of options.dirs) {
      for (const name of (await readdir(dir)).sort()) if (name.toLowerCase().endsWith('.pdf') && !/password/.test(name)) files.push(join(dir, name));
    }
    await client.send(new CreateBucketCommand({ Bucket: 'bench' }));
    let bytes = 0;
    for (const file of files) {
      const target = join(disk, basename(file));
      await copyFile(file, target);
      const body = new Uint8Array(await readFile(target));
      bytes += body.byteLength;
      await client.send(new PutObjectCommand({ Bucket: 'bench', Key: `pdf/${basename(file)}`, Body: body }));
    }
    const env = { ...process.env, ...server.env, ELASTICSEARCH_URL: '', CI: '1' };
    const ingest: IngestRun[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      for (const source of ['disk', 's3'] as const) {
        const out = join(work, `out-${source}-${round}`);
        const input = source === 'disk' ? [disk] : ['s3://bench/pdf/', '--s3-endpoint', server.endpoint];
        const started = performance.now();
        const run = await runChild({ command: process.execPath, args: [...FOLIO, ...input, '--out', out, ...FLAGS], env });
        const wallS = (performance.now() - started) / 1000;
        ingest.push({ source, round, ...counts(run.stderr), wallS, code: run.code });
        console.error(`bench sources: ${source} round ${round}: ${wallS.toFixed(2)} s`);
      }
    }

    // A bucket of small objects, uploaded through the API as a user's would be.
    for (let i = 0; i < options.keys; i += 32) {
      await Promise.all(
        Array.from({ length: Math.min(32, options.keys - i) }, (_, j) =>
          client.send(
            new PutObjectCommand({ Bucket: 'bench', Key: `many/note-${String(i + j).padStart(5, '0')}.md`, Body: `# Note ${i + j}\n\nA short note.\n` }),
          ),
        ),
      );
    }
    const resync: ResyncRun[] = [];
    const out = join(work, 'out-many');
    for (const phase of ['first', 'resync'] as const) {
      proxy.reset();
      const started = performance.now();
      const run = await runChild({ command: process.execPath, args: [...FOLIO, 's3://bench/many/', '--s3-endpoint', proxy.url, '--out', out, ...FLAGS], env });
      const wallS = (performance.now() - started) / 1000;
      const { documents, runS } = counts(run.stderr);
      const unchanged = Number(/documents: \d+ \(\d+ done, (\d+) unchanged/.exec(run.stderr)?.[1] ?? Number.NaN);
      resync.push({ phase, documents, unchanged, downloads: proxy.counts.downloads, listings: proxy.counts.listings, wallS, runS, code: run.code });
      console.error(`bench sources: ${options.keys} keys, ${phase}: ${wallS.toFixed(2)} s, ${proxy.counts.downloads} downloads`);
    }
    return { files: files.length, bytes, ingest, resync };
  } finally {
    client.destroy();
    await proxy.close();
    await server.remove();
    await rm(work, { recursive: true, force: true });
  }
}

function counts(stderr: string): { documents: number; pages: number; runS: number } {
  return {
    documents: Number(/documents: (\d+)/.exec(stderr)?.[1] ?? Number.NaN),
    pages: Number(/pages: +(\d+)/.exec(stderr)?.[1] ?? Number.NaN),
    runS: Number(/speed: .* over ([\d.]+) s/.exec(stderr)?.[1] ?? Number.NaN),
  };
}
