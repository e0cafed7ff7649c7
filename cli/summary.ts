import type { RunSummary } from '../pipeline/run/index.ts';

/** The end-of-run report: every input is accounted for. */
export function formatSummary(summary: RunSummary, extra: readonly string[] = []): string {
  const engines = Object.entries(summary.pagesByEngine).map(([engine, n]) => `${engine} ${n}`).join(', ') || 'none';
  const lines = [
    `documents: ${summary.documents} (${summary.documents - summary.documentsFailed - summary.documentsUnchanged} done, ${summary.documentsUnchanged} unchanged, ${summary.documentsFailed} failed)`,
    `pages:     ${summary.pages} (${engines}; ${summary.pagesFailed} failed)`,
    `chunks:    ${summary.chunks}${summary.chunksFailed ? ` (${summary.chunksFailed} failed)` : ''}`,
    `speed:     ${summary.pagesPerSecond.toFixed(1)} pages/s over ${summary.seconds.toFixed(1)} s`,
    ...extra,
  ];
  const codes = Object.entries(summary.failuresByCode);
  if (codes.length > 0) {
    lines.push(`failures:  ${codes.map(([code, n]) => `${code} ${n}`).join(', ')}`);
    for (const failure of summary.failures.slice(0, 20)) lines.push(`  - ${failure.reason}`);
    if (summary.failures.length > 20) lines.push(`  … ${summary.failures.length - 20} more (see failures.jsonl / the folio-failures index)`);
  }
  return lines.join('\n');
}
