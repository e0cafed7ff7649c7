/**
 * Elasticsearch refuses to run as root. When the launcher is root (CI, containers) the server runs
 * as a dedicated system user that we create on first use; otherwise it runs as whoever we are.
 */

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError } from '../../core/errors.ts';
import type { EsLayout } from './config.ts';
import { ES_USER, esLayout } from './config.ts';
import { exec, tail } from './exec.ts';

export interface RunAs {
  readonly uid: number;
  readonly gid: number;
  readonly name: string;
}

/** True when this process is root and must hand the server to {@link ES_USER}. */
export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/** The uid/gid of {@link ES_USER}, creating the user when missing. Only call as root. */
export async function ensureServerUser(): Promise<RunAs> {
  let found = await lookup();
  if (found === undefined) {
    let result;
    try {
      result = await exec('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', '--user-group', ES_USER]);
    } catch (error) {
      throw new ConfigurationError('FOLIO_ES_USER', `Cannot create the user ${ES_USER} to run Elasticsearch (it refuses root): useradd is missing`, {
        cause: error,
      });
    }
    found = await lookup();
    if (result.code !== 0 && found === undefined) {
      throw new ConfigurationError('FOLIO_ES_USER', `useradd ${ES_USER} failed (exit ${result.code}): ${tail(result.output, 5)}`);
    }
  }
  if (found === undefined) throw new ConfigurationError('FOLIO_ES_USER', `User ${ES_USER} does not exist after useradd`);
  return found;
}

async function lookup(): Promise<RunAs | undefined> {
  const uid = await exec('id', ['-u', ES_USER]);
  const gid = await exec('id', ['-g', ES_USER]);
  if (uid.code !== 0 || gid.code !== 0) return undefined;
  return { uid: Number(uid.output.trim()), gid: Number(gid.output.trim()), name: ES_USER };
}

/**
 * The layout to use as `user`: the repo cache when the user can reach it, else a folder under the
 * temp dir. A repo under `/root` (mode 700) is out of reach of any other user, and a server that
 * cannot read its own home fails with a confusing Java error, so we check up front.
 */
export async function reachableLayout(layout: EsLayout, user: RunAs | undefined): Promise<EsLayout> {
  if (user === undefined) return layout;
  const probe = await exec('test', ['-x', layout.root], { uid: user.uid, gid: user.gid });
  if (probe.code === 0) return layout;
  return esLayout({ root: layout.root, serverRoot: join(tmpdir(), 'folio-elasticsearch') });
}

/** Hand the server's folders to `user`. */
export async function chownTo(user: RunAs, paths: readonly string[]): Promise<void> {
  const result = await exec('chown', ['-R', `${user.uid}:${user.gid}`, ...paths]);
  if (result.code !== 0) throw new ConfigurationError('FOLIO_ES_USER', `chown to ${user.name} failed: ${tail(result.output, 5)}`);
}
