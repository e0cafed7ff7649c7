/** The launcher's state files (pids, URLs, plugin build) and how a failed start is worded. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FolioErrorCode } from '../../core/error-codes.ts';
import { ConfigurationError } from '../../core/errors.ts';
import type { EsLayout } from './config.ts';
import { tail } from './exec.ts';

/**
 * Alive and an Elasticsearch: a stale pidfile may name a pid the OS has since given to some
 * other process, which we must never signal.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  const cmdline = `/proc/${pid}/cmdline`;
  if (!existsSync(cmdline)) return true; // no procfs: trust the pid
  try {
    // The server JVM's command line names its main module (org.elasticsearch.server); the
    // launcher's names org.elasticsearch too.
    return readFileSync(cmdline, 'utf8').includes('org.elasticsearch');
  } catch {
    return false;
  }
}

/** Every node's URL, one a line. */
export function urlsFile(layout: EsLayout): string {
  return join(layout.run, 'urls');
}

/** Which plugin build the running server holds (absent: none). */
export function pluginFile(layout: EsLayout): string {
  return join(layout.run, 'plugin');
}

/** The pids in the pidfile, one a line (a cluster has several). */
export function readPids(layout: EsLayout): number[] {
  return (readState(layout.pidFile) ?? '')
    .split('\n')
    .map(Number)
    .filter((pid) => Number.isInteger(pid) && pid > 0);
}

export function readState(path: string): string | undefined {
  try {
    const text = readFileSync(path, 'utf8').trim();
    return text === '' ? undefined : text;
  } catch {
    return undefined;
  }
}

export function startFailure(layout: EsLayout, what: string, code: FolioErrorCode = 'FOLIO_ES_START'): ConfigurationError {
  const parts = [what];
  for (const [name, path] of [
    ['launcher output', layout.launcherLog],
    ['server log', layout.serverLog],
  ] as const) {
    const text = readState(path);
    if (text !== undefined) parts.push(`--- ${name} (${path}), last lines ---\n${tail(text, 25)}`);
  }
  return new ConfigurationError(code, parts.join('\n'), { meta: { home: layout.home } });
}
