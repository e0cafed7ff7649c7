/**
 * Where the local Elasticsearch lives and which one it is. Everything sits under the repo's
 * ignored `.cache/elasticsearch/` so a fresh clone downloads once and later runs reuse it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigurationError } from '../../core/errors.ts';

/**
 * The server version, pinned: one version for the test server, the launcher, the JS client's
 * minor (9.5.x) and the ingest plugin, which must be built for the exact server it runs in. Maven
 * Central has the server jar for 9.5.x but for no 9.4.x, so the plugin forces 9.5.
 */
export const ES_VERSION = '9.5.3';

/** The Maven coordinates of the minimal distribution (no bundled JDK, x-pack-core only). */
export const ES_ARTIFACT = `org.elasticsearch.distribution.integ-test-zip:elasticsearch:${ES_VERSION}:zip`;

/** The system user that runs the server when we are root (Elasticsearch refuses to run as root). */
export const ES_USER = 'folio-es';

/** Where the JDK the lead verified lives; any Java ≥ 21 works. */
export const DEFAULT_JAVA_HOME = '/usr/lib/jvm/temurin-25-jdk-amd64';

/** The oldest Java the 9.x server starts on. */
const MIN_JAVA = 21;

/** The repository root, found from this file so scripts work from any working directory. */
export const REPO_ROOT = resolve(fileURLToPath(new URL('../../', import.meta.url)));

/** All the paths one instance uses. */
export interface EsLayout {
  /** `.cache/elasticsearch`: the download and the launcher's state (pid and URL files). */
  readonly root: string;
  /** Where the server's own files live (home, data, logs); `root` unless that is unreachable for {@link ES_USER}. */
  readonly serverRoot: string;
  /** The downloaded zip. */
  readonly zip: string;
  /** The unpacked server (`ES_HOME`). */
  readonly home: string;
  readonly data: string;
  readonly logs: string;
  /** The launcher's state: pidfile, URL file, launcher output. */
  readonly run: string;
  readonly pidFile: string;
  readonly urlFile: string;
  /** The pidfile the server itself writes (`-p`), in a folder the server user may write. */
  readonly serverPidFile: string;
  /** Output of `bin/elasticsearch -d` (startup errors land here, not in the server log). */
  readonly launcherLog: string;
  /** The server's own log (`path.logs/<cluster.name>.log`). */
  readonly serverLog: string;
}

export interface LayoutOptions {
  /** The cache folder. @default `<repo>/.cache/elasticsearch` */
  readonly root?: string;
  /** Where the server's files go. @default `root` */
  readonly serverRoot?: string;
  /** @default {@link ES_VERSION} */
  readonly version?: string;
}

/** The cluster name, which also names the server log file. */
export const CLUSTER_NAME = 'folio';

/**
 * The paths of one cached instance.
 *
 * @example
 * const { home, urlFile } = esLayout()
 */
export function esLayout(options: Readonly<LayoutOptions> = {}): EsLayout {
  const { root = join(REPO_ROOT, '.cache', 'elasticsearch'), version = ES_VERSION } = options;
  const { serverRoot = root } = options;
  const run = join(root, 'run');
  const logs = join(serverRoot, 'logs');
  return {
    root,
    serverRoot,
    zip: join(root, 'download', `elasticsearch-${version}.zip`),
    home: join(serverRoot, `elasticsearch-${version}`),
    data: join(serverRoot, 'data'),
    logs,
    run,
    pidFile: join(run, 'elasticsearch.pid'),
    urlFile: join(run, 'url'),
    serverPidFile: join(serverRoot, 'server-run', 'elasticsearch.pid'),
    launcherLog: join(run, 'launcher.log'),
    serverLog: join(logs, `${CLUSTER_NAME}.log`),
  };
}

/** The major version of the JDK at `home`, from its `release` file; undefined if none is there. */
export function javaMajor(home: string): number | undefined {
  const release = join(home, 'release');
  if (!existsSync(release) || !existsSync(join(home, 'bin', 'java'))) return undefined;
  const match = /JAVA_VERSION="(\d+)/.exec(readFileSync(release, 'utf8'));
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/**
 * The JDK to run the server with: `ES_JAVA_HOME`, else {@link DEFAULT_JAVA_HOME}, else the newest
 * JDK ≥ 21 under `/usr/lib/jvm`, else `JAVA_HOME`. Throws a ConfigurationError saying what was tried.
 */
export function findJavaHome(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env['ES_JAVA_HOME'];
  if (explicit !== undefined && explicit !== '') {
    const major = javaMajor(explicit);
    if (major === undefined || major < MIN_JAVA) {
      throw new ConfigurationError('FOLIO_ES_NO_JAVA', `ES_JAVA_HOME=${explicit} is not a JDK ${MIN_JAVA} or newer (found ${major ?? 'no JDK'})`);
    }
    return explicit;
  }
  const candidates: string[] = [DEFAULT_JAVA_HOME];
  if (existsSync('/usr/lib/jvm')) {
    const found = readdirSync('/usr/lib/jvm').map((name) => join('/usr/lib/jvm', name));
    found.sort((a, b) => (javaMajor(b) ?? 0) - (javaMajor(a) ?? 0));
    candidates.push(...found);
  }
  if (env['JAVA_HOME']) candidates.push(env['JAVA_HOME']);
  for (const home of candidates) {
    if ((javaMajor(home) ?? 0) >= MIN_JAVA) return home;
  }
  throw new ConfigurationError(
    'FOLIO_ES_NO_JAVA',
    `Elasticsearch ${ES_VERSION} needs Java ${MIN_JAVA} or newer; none found (tried ${candidates.join(', ')}). Install one (e.g. temurin-25-jdk) or set ES_JAVA_HOME`,
  );
}
