/**
 * `folio bench sources [--rounds N] [--keys N] [--dir DIR]...`: objects/s and pages/s of `folio
 * ingest` from a local S3-compatible server beside the same files from disk, and the re-sync of an
 * unchanged bucket (target: no downloads, a few seconds). Writes `sources.md` and `sources.json`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigurationError, describeError } from '../../core/errors.ts';
import { machineInfo, machineMarkdown } from '../common/machine.ts';
import { median } from '../common/stats.ts';
import { type IngestRun, runSourcesSet, type SourcesBenchResult } from './run.ts';

export type { SourcesBenchOptions, SourcesBenchResult } from './run.ts';
export { runSourcesSet } from './run.ts';

export const SOURCES_USAGE = 'folio bench sources [--rounds N] [--keys N] [--dir DIR]... [--quick]';
const DEFAULT_DIRS = ['../shared/data/icdar2013-dev', '../shared/data/docling-dev/pdf'];

/**
 * @example
 * await runSourcesBench({ argv: ['--rounds', '1'], resultsDir: 'bench/results' });
 */
export async function runSourcesBench({ argv, resultsDir }: Readonly<{ argv: readonly string[]; resultsDir: string }>): Promise<SourcesBenchResult> {
  let values;
  try {
    values = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: { rounds: { type: 'string' }, keys: { type: 'string' }, dir: { type: 'string', multiple: true }, quick: { type: 'boolean' } },
    }).values;
  } catch (error) {
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench sources: ${describeError(error)}; usage: ${SOURCES_USAGE}`, { cause: error });
  }
  const rounds = Number(values.rounds ?? (values.quick ? 1 : 3));
  const keys = Number(values.keys ?? 1000);
  if (!Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(keys) || keys < 1) {
    throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `bench sources: --rounds and --keys must be integers from 1 and up; usage: ${SOURCES_USAGE}`);
  }
  const dirs = values.dir ?? DEFAULT_DIRS;
  const machine = machineInfo();
  const result = await runSourcesSet({ dirs, rounds, keys });
  await mkdir(resultsDir, { recursive: true });
  const command = `npx folio bench sources ${argv.join(' ')}`.trim();
  await writeFile(join(resultsDir, 'sources.json'), `${JSON.stringify({ command, machine, dirs, ...result, summary: summarize(result) }, null, 2)}\n`);
  await writeFile(join(resultsDir, 'sources.md'), sourcesReport(result, command, dirs, machineMarkdown(machine)));
  console.error(`bench sources: wrote ${join(resultsDir, 'sources.md')}`);
  return result;
}

interface SourceFigures {
  readonly documents: number;
  readonly pages: number;
  readonly medianWallS: number;
  readonly medianRunS: number;
  readonly objectsPerS: number;
  readonly pagesPerS: number;
}

function figures(runs: readonly IngestRun[]): SourceFigures {
  const runS = median(runs.map((run) => run.runS));
  return {
    documents: runs[0]?.documents ?? 0,
    pages: runs[0]?.pages ?? 0,
    medianWallS: median(runs.map((run) => run.wallS)),
    medianRunS: runS,
    objectsPerS: (runs[0]?.documents ?? 0) / runS,
    pagesPerS: (runs[0]?.pages ?? 0) / runS,
  };
}

function summarize(result: SourcesBenchResult): { disk: SourceFigures; s3: SourceFigures } {
  return { disk: figures(result.ingest.filter((run) => run.source === 'disk')), s3: figures(result.ingest.filter((run) => run.source === 's3')) };
}

/** The result as Markdown. */
export function sourcesReport(result: SourcesBenchResult, command: string, dirs: readonly string[], machine: string): string {
  const { disk, s3 } = summarize(result);
  const f = (x: number, digits = 1): string => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
  const row = (name: string, x: SourceFigures): string =>
    `| ${name} | ${x.documents} | ${x.pages} | ${f(x.medianRunS, 2)} | ${f(x.medianWallS, 2)} | ${f(x.objectsPerS)} | ${f(x.pagesPerS)} |`;
  const failed = result.ingest.filter((run) => run.code !== 0 && run.code !== 1);
  return [
    '# Sources: S3-compatible storage beside disk',
    '',
    `\`${command}\`: ${result.files} text-layer PDFs (${f(result.bytes / 2 ** 20)} MiB, from ${dirs.join(', ')}) ingested with \`folio ingest --engine text --embed none --workers 0\` to NDJSON, from a folder and from \`s3://\` on a local s3proxy (filesystem backend, started by the bench), ${result.ingest.length / 2} round(s) each, interleaved. Medians; "run" is the run's own duration from its summary, "wall" the process including start-up.`,
    '',
    '| source | documents | pages | run s | wall s | objects/s | pages/s |',
    '|---|---|---|---|---|---|---|',
    row('disk', disk),
    row('s3 (local s3proxy)', s3),
    '',
    'Every round (run s / wall s):',
    '',
    '| round | disk | s3 |',
    '|---|---|---|',
    ...[...new Set(result.ingest.map((run) => run.round))].map((round) => {
      const cell = (source: string): string => {
        const run = result.ingest.find((r) => r.round === round && r.source === source);
        return run === undefined ? '' : `${f(run.runS, 2)} / ${f(run.wallS, 2)}`;
      };
      return `| ${round} | ${cell('disk')} | ${cell('s3')} |`;
    }),
    '',
    failed.length > 0 ? `Runs that did not finish: ${failed.map((run) => `${run.source} round ${run.round} exit ${run.code}`).join(', ')}.\n` : '',
    `## Re-sync of an unchanged bucket`,
    '',
    'Small Markdown objects uploaded through the S3 API, ingested once, then ingested again unchanged; object downloads (GETs other than listings) counted by a pass-through proxy.',
    '',
    '| phase | documents | unchanged | downloads | listing requests | run s | wall s | exit |',
    '|---|---|---|---|---|---|---|---|',
    ...result.resync.map(
      (run) =>
        `| ${run.phase} | ${run.documents} | ${run.unchanged} | ${run.downloads} | ${run.listings} | ${f(run.runS, 2)} | ${f(run.wallS, 2)} | ${run.code} |`,
    ),
    '',
    machine,
    '',
  ].join('\n');
}
