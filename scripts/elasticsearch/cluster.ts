/**
 * A local cluster of several nodes on loopback (`npm run es:start -- --nodes 3`): one unpacked
 * home (so the plugin installed once is on every node), a data, log and pid folder per node, and
 * the launcher's state in its own `cluster/` folder so a single-node server and a cluster never
 * mistake each other's files.
 */
import { join } from 'node:path';
import type { EsLayout } from './config.ts';

/** The cluster's own name: never joined by a single-node server started from the same home. */
export const MULTI_NODE_CLUSTER_NAME = 'folio-cluster';

/** The launcher state and server folders of a cluster, beside (not over) the single node's. */
export function clusterLayout(base: EsLayout): EsLayout {
  const run = join(base.root, 'cluster', 'run');
  const serverDir = join(base.serverRoot, 'cluster');
  return {
    ...base,
    run,
    pidFile: join(run, 'elasticsearch.pid'),
    urlFile: join(run, 'url'),
    data: join(serverDir, 'data'),
    logs: join(serverDir, 'logs'),
    serverPidFile: join(serverDir, 'server-run', 'elasticsearch.pid'),
    launcherLog: join(run, 'launcher.log'),
    serverLog: join(serverDir, 'logs', `${MULTI_NODE_CLUSTER_NAME}.log`),
  };
}

/** Node `n` (1-based) of a cluster: its own data, logs and pidfile. */
export function nodeLayout(cluster: EsLayout, n: number): EsLayout {
  const dir = join(cluster.data, '..', `node-${n}`);
  return {
    ...cluster,
    data: join(dir, 'data'),
    logs: join(dir, 'logs'),
    serverPidFile: join(dir, 'server-run', 'elasticsearch.pid'),
    launcherLog: join(cluster.run, `launcher-${n}.log`),
    serverLog: join(dir, 'logs', `${MULTI_NODE_CLUSTER_NAME}.log`),
  };
}

/** The settings that make node `n` of `transportPorts.length` nodes one cluster with the others. */
export function nodeSettings(n: number, transportPorts: readonly number[]): Record<string, string> {
  const names = transportPorts.map((_, i) => `folio-${i + 1}`);
  return {
    'cluster.name': MULTI_NODE_CLUSTER_NAME,
    'node.name': names[n - 1]!,
    'transport.port': String(transportPorts[n - 1]),
    'discovery.seed_hosts': transportPorts.map((port) => `127.0.0.1:${port}`).join(','),
    'cluster.initial_master_nodes': names.join(','),
  };
}
