/** Running `bin/elasticsearch -d` for one node, and finding ports for it. */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ConfigurationError } from '../../core/errors.ts';
import type { EsLayout } from './config.ts';
import { CLUSTER_NAME } from './config.ts';
import { exec } from './exec.ts';
import { readState, startFailure } from './state.ts';
import type { RunAs } from './user.ts';

export interface LaunchOptions {
  readonly layout: EsLayout;
  readonly javaHome: string;
  readonly heapMb: number;
  readonly httpPort: number;
  readonly user: RunAs | undefined;
  readonly timeoutMs: number;
  /** Settings that make the node one of a cluster (instead of `discovery.type: single-node`). */
  readonly cluster?: Readonly<Record<string, string>>;
  /** More node settings (the plugin's `folio.servers`). */
  readonly extra?: Readonly<Record<string, string>>;
}

/** Run `bin/elasticsearch -d`: it daemonizes once the node is up and writes the server's pid. */
export async function launch(options: LaunchOptions): Promise<number> {
  const { layout, javaHome, heapMb, httpPort, user, timeoutMs, cluster, extra = {} } = options;
  const single = {
    'cluster.name': CLUSTER_NAME,
    'node.name': 'folio-local',
    'discovery.type': 'single-node',
    'network.host': '127.0.0.1',
    'http.port': String(httpPort),
    'xpack.security.enabled': 'false',
    'path.data': layout.data,
    'path.logs': layout.logs,
    // Small CI disks would otherwise flip indices to read-only at 95% full.
    'cluster.routing.allocation.disk.threshold_enabled': 'false',
  };
  const { 'discovery.type': _single, ...multi } = single;
  const settings = { ...(cluster === undefined ? single : { ...multi, ...cluster }), ...extra };
  const args = ['-d', '-p', layout.serverPidFile, ...Object.entries(settings).flatMap(([key, value]) => ['-E', `${key}=${value}`])];
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    HOME: user === undefined ? (process.env['HOME'] ?? layout.serverRoot) : layout.serverRoot,
    ES_JAVA_HOME: javaHome,
    ES_JAVA_OPTS: `-Xms${heapMb}m -Xmx${heapMb}m`,
  };
  const result = await exec(join(layout.home, 'bin', 'elasticsearch'), args, {
    cwd: layout.home,
    env,
    timeoutMs,
    ...(user === undefined ? {} : { uid: user.uid, gid: user.gid }),
  });
  writeFileSync(layout.launcherLog, result.output);
  if (result.code !== 0) throw startFailure(layout, `bin/elasticsearch exited with ${result.code ?? 'a signal'}`);
  const pid = Number(readState(layout.serverPidFile));
  if (!Number.isInteger(pid)) throw startFailure(layout, `bin/elasticsearch -d wrote no pid to ${layout.serverPidFile}`);
  return pid;
}

/** 9200 when free, else whatever the OS hands out; an explicit port must be free. */
export async function choosePort(port: number | undefined): Promise<number> {
  if (port !== undefined) {
    if (!(await portFree(port))) {
      throw new ConfigurationError('FOLIO_ES_PORT_IN_USE', `Port ${port} on 127.0.0.1 is already in use; pick another with --port or FOLIO_ES_PORT`, {
        meta: { port },
      });
    }
    return port;
  }
  if (await portFree(9200)) return 9200;
  return await freePort();
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const server = createServer();
    server.once('error', () => resolvePromise(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolvePromise(true)));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolvePromise(port));
    });
  });
}
