import type { FailureRecord } from '../core/types.ts';
import type { RunSummary } from '../pipeline/run/index.ts';

/**
 * Exit codes a job can trust, one declaration for `ingest`, `convert`, `--help` and the README:
 * 0 everything indexed or unchanged; 1 some inputs failed and were recorded; 2 configuration
 * (bad flags, Elasticsearch unreachable at start); 3 the sink was lost (records could not be
 * written and went to the fallback file, or could not be written at all).
 */
export const EXIT = { ok: 0, failed: 1, configuration: 2, sinkLost: 3 } as const;

export const EXIT_CODES_HELP = `exit codes:
  0  every input indexed (or unchanged)
  1  some inputs failed; each is recorded with its reason (the summary says where)
  2  configuration: a bad flag or value, Elasticsearch or an S3 endpoint unreachable at the
     start, credentials refused
  3  the sink or a source server (S3) was lost mid-run: records went to the fallback file,
     nothing was pruned; rerun once it is back`;

export interface SummaryOptions {
  /** Lines after the counts (where the output went, indexing figures). */
  readonly extra?: readonly string[];
  /** Where the failure records went, code counts per place (see `SinkStats.failuresAt`). */
  readonly failuresAt?: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** The sink's own failure records (chunks it could not store), shown after the run's. */
  readonly dropped?: readonly FailureRecord[];
  /** Why the sink stopped storing. */
  readonly lost?: string | undefined;
}

/** Reasons listed in full; the rest are counted. */
const SHOWN = 12;

/** The end-of-run report: every input is accounted for, and every failure is found where it is said to be. */
export function formatSummary(summary: RunSummary, options: Readonly<SummaryOptions> = {}): string {
  const { extra = [], failuresAt, dropped = [], lost } = options;
  const engines =
    Object.entries(summary.pagesByEngine)
      .map(([engine, n]) => `${engine} ${n}`)
      .join(', ') || 'none';
  const done = summary.documents - summary.documentsFailed - summary.documentsUnchanged;
  const removed = summary.documentsRemoved > 0 ? `, removed ${summary.documentsRemoved}` : '';
  const blank = summary.pagesBlank > 0 ? `${summary.pagesBlank} blank, ` : '';
  const lines = [
    `documents: ${summary.documents} (${done} done, ${summary.documentsUnchanged} unchanged, ${summary.documentsFailed} failed${removed})`,
    `pages:     ${summary.pages} (${engines}; ${blank}${summary.pagesFailed} failed)`,
    `chunks:    ${summary.chunks}${summary.chunksFailed ? ` (${summary.chunksFailed} failed)` : ''}`,
    `speed:     ${summary.pagesPerSecond.toFixed(1)} pages/s over ${summary.seconds.toFixed(1)} s`,
    ...extra,
  ];
  if (lost !== undefined || summary.stopped !== undefined) {
    lines.push(`LOST:      ${lost ?? summary.stopped}`);
    lines.push('           no new documents were read after that; rerun once the cluster is back: only what is missing is indexed');
  }
  if (summary.pruneSkipped !== undefined) lines.push(`prune:     ${summary.pruneSkipped}`);
  const places = Object.entries(failuresAt ?? {}).filter(([, codes]) => Object.keys(codes).length > 0);
  if (places.length > 0) {
    const total = places.reduce((sum, [, codes]) => sum + Object.values(codes).reduce((a, b) => a + b, 0), 0);
    lines.push(`failures:  ${total} recorded`);
    for (const [where, codes] of places)
      lines.push(
        `  in ${where}: ${Object.entries(codes)
          .map(([code, n]) => `${code} ${n}`)
          .join(', ')}`,
      );
  } else if (Object.keys(summary.failuresByCode).length > 0) {
    lines.push(
      `failures:  ${Object.entries(summary.failuresByCode)
        .map(([code, n]) => `${code} ${n}`)
        .join(', ')}`,
    );
  }
  const reasons = [...summary.failures, ...dropped];
  for (const failure of reasons.slice(0, SHOWN)) lines.push(`  - ${failure.reason}`);
  if (reasons.length > SHOWN) lines.push(`  … and ${reasons.length - SHOWN} more, in the places above`);
  return lines.join('\n');
}

/** The exit code of a finished run: see {@link EXIT}. */
export function exitCode(summary: RunSummary, sink?: { readonly lost?: string | undefined; readonly failures: Readonly<Record<string, number>> }): number {
  if (sink?.lost !== undefined || summary.stopped !== undefined) return EXIT.sinkLost;
  const sinkFailures = Object.values(sink?.failures ?? {}).reduce((a, b) => a + b, 0);
  if (summary.failures.length > 0 || summary.documentsFailed > 0 || sinkFailures > 0) return EXIT.failed;
  return EXIT.ok;
}
