/**
 * Start, reuse and stop the local single-node Elasticsearch. State lives in two small files (pid
 * and URL) under `.cache/elasticsearch/run/` so `es:stop`, the test setup and a second `es:start`
 * all find the same server.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigurationError } from '../../core/errors.ts';
import { sha256 } from '../../core/hash.ts';
import { clusterLayout, nodeLayout, nodeSettings } from './cluster.ts';
import type { EsLayout } from './config.ts';
import { ES_VERSION, esLayout, findJavaHome } from './config.ts';
import { exec, tail } from './exec.ts';
import { clusterHealth, isReady } from './health.ts';
import { installElasticsearch } from './install.ts';
import { choosePort, freePort, launch } from './launch.ts';
import { buildPlugin, installPlugin, pluginSourceHash } from './plugin.ts';
import { isAlive, pluginFile, readPids, readState, startFailure, urlsFile } from './state.ts';
import { chownTo, ensureServerUser, isRoot, reachableLayout } from './user.ts';

export interface StartOptions {
  /** HTTP port. A port that is taken is an error. @default 9200 when free, else any free port */
  readonly port?: number;
  /** JVM heap in MiB (both -Xms and -Xmx). @default 512 */
  readonly heapMb?: number;
  /** How long to wait for the cluster to be ready. @default 180000 */
  readonly timeoutMs?: number;
  /** Progress lines (stderr in the CLI). @default no-op */
  readonly log?: (line: string) => void;
  /** @default esLayout() */
  readonly layout?: EsLayout;
  /**
   * Build (cached by source hash) and install Folio's ingest plugin before the server starts; a
   * running server with an older build is restarted. @default true
   */
  readonly plugin?: boolean;
  /** Install this plugin zip instead of building one (a test installs a broken build this way). */
  readonly pluginZip?: string;
  /**
   * Nodes in the cluster. More than one starts a cluster on loopback with its own state (see
   * `cluster.ts`); `port` is then the first node's. @default 1
   */
  readonly nodes?: number;
  /**
   * The plugin's `folio.servers` node setting: where a `folio` processor whose pipeline names no
   * `server` sends documents. A node setting cannot change while the node runs, so the launcher
   * sets it for the local `folio serve` (its default port). @default [DEFAULT_SERVE_URL]
   */
  readonly folioServers?: readonly string[];
}

/** `npx folio serve`'s address at its defaults. */
export const DEFAULT_SERVE_URL = 'http://127.0.0.1:8000';

export interface RunningElasticsearch {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** False when an already running server was reused: then the caller must not stop it. */
  readonly started: boolean;
  readonly version: string;
  /** The server's pid, when known. */
  readonly pid?: number;
  /** Milliseconds from spawn to ready, when we started it. */
  readonly startMs?: number;
  /** Every node's URL (one for a single node). */
  readonly urls: readonly string[];
  /** Every node's pid, in the order of `urls`, when we started them. */
  readonly pids?: readonly number[];
}

/**
 * Start the cached server (downloading it on first use), or reuse the one the URL file names if
 * it answers and is ready. Resolves once the cluster is green (see {@link isReady}).
 *
 * @example
 * const { url, started } = await startElasticsearch({ log: (line) => console.error(line) })
 */
export async function startElasticsearch(options: Readonly<StartOptions> = {}): Promise<RunningElasticsearch> {
  const { port, heapMb = 512, timeoutMs = 180_000, log = () => {}, plugin = true, pluginZip, nodes = 1, folioServers = [DEFAULT_SERVE_URL] } = options;
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > 9) {
    throw new ConfigurationError('FOLIO_ES_BAD_OPTION', `Expected \`nodes\` to be an integer from 1 to 9, got \`${nodes}\` (${typeof nodes})`);
  }
  const single = options.layout ?? esLayout();
  const base = nodes === 1 ? single : clusterLayout(single);
  if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535)) {
    throw new ConfigurationError('FOLIO_ES_BAD_OPTION', `Expected \`port\` to be an integer from 1 to 65535, got \`${port}\` (${typeof port})`);
  }
  if (!Number.isInteger(heapMb) || heapMb < 128) {
    throw new ConfigurationError('FOLIO_ES_BAD_OPTION', `Expected \`heapMb\` to be an integer of at least 128, got \`${heapMb}\` (${typeof heapMb})`);
  }

  const reused = await reuse(base, timeoutMs, log);
  if (reused !== undefined) {
    // A server someone else started (no pidfile of ours) is used as it is.
    const ours = readState(base.pidFile) !== undefined;
    if (!ours || readState(pluginFile(base)) === (plugin ? pluginSourceHash() : undefined))
      return { ...reused, urls: readState(urlsFile(base))?.split('\n') ?? [reused.url] };
    log(plugin ? 'the running server has another build of the plugin (or none); restarting it' : 'the running server has the plugin; restarting it without');
    await stopElasticsearch({ layout: base, log });
  }

  // An explicit port that is taken fails now, before any download.
  const httpPort = await choosePort(port);
  const javaHome = findJavaHome();
  const user = isRoot() ? await ensureServerUser() : undefined;
  // The probe below needs the folder to exist: a missing one reads as unreachable.
  mkdirSync(base.root, { recursive: true });
  const reachable = await reachableLayout(single, user);
  const layout = nodes === 1 ? reachable : clusterLayout(reachable);
  if (layout.serverRoot !== base.serverRoot) log(`${base.root} is not reachable by ${user?.name}; running the server from ${layout.serverRoot}`);
  await installElasticsearch({ layout, javaHome, log });
  for (const dir of [layout.run, layout.data, layout.logs, join(layout.serverPidFile, '..')]) mkdirSync(dir, { recursive: true });
  rmSync(layout.serverPidFile, { force: true });
  if (user !== undefined) await chownTo(user, [layout.home, layout.data, layout.logs, join(layout.serverPidFile, '..')]);
  rmSync(pluginFile(base), { force: true });
  const built =
    pluginZip !== undefined
      ? { zip: pluginZip, hash: sha256(readFileSync(pluginZip)).slice(0, 16) }
      : plugin
        ? await buildPlugin({ javaHome, log })
        : undefined;
  if (built !== undefined) await installPlugin({ layout, ...built, javaHome, user, log });

  const nodeLayouts = nodes === 1 ? [layout] : Array.from({ length: nodes }, (_, i) => nodeLayout(layout, i + 1));
  const httpPorts = [httpPort, ...(await Promise.all(nodeLayouts.slice(1).map(() => freePort())))];
  const transportPorts = nodes === 1 ? [] : await Promise.all(nodeLayouts.map(() => freePort()));
  for (const node of nodeLayouts.slice(nodes === 1 ? 1 : 0)) {
    for (const dir of [node.data, node.logs, join(node.serverPidFile, '..')]) mkdirSync(dir, { recursive: true });
    rmSync(node.serverPidFile, { force: true });
    if (user !== undefined) await chownTo(user, [join(node.data, '..')]);
  }
  // Nodes started together would each create the missing keystore, and trip over each other.
  if (nodes > 1 && !existsSync(join(layout.home, 'config', 'elasticsearch.keystore'))) {
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: layout.serverRoot, ES_JAVA_HOME: javaHome };
    const created = await exec(join(layout.home, 'bin', 'elasticsearch-keystore'), ['create'], {
      cwd: layout.home,
      env,
      ...(user === undefined ? {} : { uid: user.uid, gid: user.gid }),
    });
    if (created.code !== 0) throw startFailure(layout, `elasticsearch-keystore create exited with ${created.code}: ${tail(created.output, 10)}`);
  }
  const urls = httpPorts.map((p) => `http://127.0.0.1:${p}`);
  const url = urls[0]!;
  log(`starting Elasticsearch ${ES_VERSION} on ${urls.join(', ')} (heap ${heapMb} MiB${nodes > 1 ? ' per node' : ''}, Java ${javaHome}) …`);
  const began = Date.now();
  // All at once: a node of a new cluster waits for the others to elect a master.
  const launched = await Promise.allSettled(
    nodeLayouts.map((node, i) =>
      launch({
        layout: node,
        javaHome,
        heapMb,
        httpPort: httpPorts[i]!,
        user,
        timeoutMs,
        ...(nodes === 1 ? {} : { cluster: nodeSettings(i + 1, transportPorts) }),
        // Only a node with the plugin knows the setting (an unknown one stops it at start).
        ...(built !== undefined && folioServers.length > 0 ? { extra: { 'folio.servers': folioServers.join(',') } } : {}),
      }),
    ),
  );
  const pids = launched.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  writeFileSync(layout.pidFile, `${pids.join('\n')}\n`);
  const failed = launched.find((r) => r.status === 'rejected');
  if (failed !== undefined) {
    // A launcher that timed out (a busy machine) may leave its node running: the node wrote its
    // own pidfile once up. Stop those too, or they outlive the failed start.
    const strays = nodeLayouts.map((node) => Number(readState(node.serverPidFile))).filter((p) => Number.isInteger(p) && p > 0 && !pids.includes(p));
    if (strays.length > 0) writeFileSync(layout.pidFile, `${[...pids, ...strays].join('\n')}\n`);
    await stopElasticsearch({ layout: base });
    throw failed.reason;
  }
  const pid = pids[0]!;

  const deadline = began + timeoutMs;
  for (;;) {
    const health = await clusterHealth(url);
    if (isReady(health) && health!.number_of_nodes >= nodes) break;
    const dead = pids.findIndex((p) => !isAlive(p));
    if (dead >= 0) {
      await stopElasticsearch({ layout: base });
      throw startFailure(nodeLayouts[dead]!, `Elasticsearch (pid ${pids[dead]}) exited during startup`);
    }
    if (Date.now() > deadline) {
      await stopElasticsearch({ layout: base });
      throw startFailure(nodeLayouts[0]!, `Elasticsearch on ${url} was not green with ${nodes} node(s) after ${timeoutMs} ms`, 'FOLIO_ES_START_TIMEOUT');
    }
    await sleep(250);
  }
  writeFileSync(layout.urlFile, `${url}\n`);
  writeFileSync(urlsFile(base), `${urls.join('\n')}\n`);
  if (built !== undefined) writeFileSync(pluginFile(base), `${built.hash}\n`);
  const startMs = Date.now() - began;
  log(`Elasticsearch ${ES_VERSION} is green on ${urls.join(', ')} after ${(startMs / 1000).toFixed(1)} s (pid ${pids.join(', ')})`);
  return { url, urls, pids, started: true, version: ES_VERSION, pid, startMs };
}

/** A live, ready server the URL file names; waits while one is still starting. */
async function reuse(layout: EsLayout, timeoutMs: number, log: (line: string) => void): Promise<RunningElasticsearch | undefined> {
  const url = readState(layout.urlFile);
  const pid = readPids(layout)[0] ?? Number.NaN;
  if (url !== undefined && isReady(await clusterHealth(url))) {
    log(`reusing Elasticsearch on ${url}`);
    return { url, urls: [url], started: false, version: ES_VERSION, ...(Number.isInteger(pid) ? { pid } : {}) };
  }
  if (Number.isInteger(pid) && isAlive(pid)) {
    // A server we launched is alive but not ready: another launcher (a second test run) is still
    // starting it. Wait for it rather than start a second one onto the same data folder.
    log(`Elasticsearch (pid ${pid}) is starting; waiting for it`);
    const deadline = Date.now() + timeoutMs;
    while (isAlive(pid) && Date.now() < deadline) {
      const current = readState(layout.urlFile);
      if (current !== undefined && isReady(await clusterHealth(current))) return { url: current, urls: [current], started: false, version: ES_VERSION, pid };
      await sleep(500);
    }
    if (isAlive(pid)) {
      throw new ConfigurationError(
        'FOLIO_ES_NOT_READY',
        `Elasticsearch (pid ${pid}) is running but was not ready within ${timeoutMs} ms; run \`npm run es:stop\` and start again`,
        { meta: { pid, url, timeoutMs } },
      );
    }
  }
  rmSync(layout.urlFile, { force: true });
  rmSync(layout.pidFile, { force: true });
  return undefined;
}

export interface StopOptions {
  /** @default esLayout() */
  readonly layout?: EsLayout;
  /** How long to wait for a clean shutdown before SIGKILL. @default 60000 */
  readonly timeoutMs?: number;
  /** @default no-op */
  readonly log?: (line: string) => void;
}

/**
 * Stop the server the pidfile names (SIGTERM, then SIGKILL after `timeoutMs`) and clear the state
 * files. Resolves to false when nothing of ours was running.
 *
 * @example
 * await stopElasticsearch()
 */
export async function stopElasticsearch(options: Readonly<StopOptions> = {}): Promise<boolean> {
  const { layout = esLayout(), timeoutMs = 60_000, log = () => {} } = options;
  const pids = readPids(layout).filter((pid) => isAlive(pid));
  rmSync(layout.urlFile, { force: true });
  rmSync(urlsFile(layout), { force: true });
  if (pids.length === 0) {
    rmSync(layout.pidFile, { force: true });
    return false;
  }
  log(`stopping Elasticsearch (pid ${pids.join(', ')}) …`);
  for (const pid of pids) process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + timeoutMs;
  while (pids.some(isAlive) && Date.now() < deadline) await sleep(200);
  for (const pid of pids.filter(isAlive)) {
    log(`pid ${pid} ignored SIGTERM for ${timeoutMs} ms; killing it`);
    process.kill(pid, 'SIGKILL');
    while (isAlive(pid)) await sleep(100);
  }
  rmSync(layout.pidFile, { force: true });
  return true;
}

/** The URL of our running, ready server, if any. */
export async function runningUrl(layout: EsLayout = esLayout()): Promise<string | undefined> {
  const url = readState(layout.urlFile);
  return url !== undefined && isReady(await clusterHealth(url)) ? url : undefined;
}
