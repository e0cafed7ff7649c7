/**
 * Download and unpack the pinned Elasticsearch once into the cache. Maven does the download from
 * the repositories it is configured with (its settings, mirrors and proxies; it verifies the
 * checksums), so no repository address lives in this code. Without `mvn` the download stops with
 * a clear message.
 */
import { accessSync, chmodSync, constants, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { ConfigurationError } from '../../core/errors.ts';
import type { EsLayout } from './config.ts';
import { ES_ARTIFACT, ES_VERSION } from './config.ts';
import { exec, tail } from './exec.ts';

export interface InstallOptions {
  readonly layout: EsLayout;
  /** The JDK, whose `jar` tool unpacks when `unzip` is missing. */
  readonly javaHome: string;
  /** Progress lines go here (stderr in the CLI). @default no-op */
  readonly log?: (line: string) => void;
}

/**
 * Make sure `layout.home` holds an unpacked server. Idempotent; a half-finished unpack never
 * counts because we unpack into a temporary folder and rename it into place.
 *
 * @example
 * await installElasticsearch({ layout: esLayout(), javaHome: findJavaHome() })
 */
export async function installElasticsearch(options: Readonly<InstallOptions>): Promise<void> {
  const { layout, javaHome, log = () => {} } = options;
  if (existsSync(join(layout.home, 'bin', 'elasticsearch'))) return;
  if (!existsSync(layout.zip)) await download(layout.zip, log);
  try {
    await unpack(layout, javaHome, log);
  } catch (error) {
    // A truncated zip from an interrupted run: fetch it again once.
    log(`unpacking failed (${(error as Error).message.split('\n')[0]}); downloading again`);
    rmSync(layout.zip, { force: true });
    await download(layout.zip, log);
    await unpack(layout, javaHome, log);
  }
}

async function download(zip: string, log: (line: string) => void): Promise<void> {
  const folder = dirname(zip);
  mkdirSync(folder, { recursive: true });
  log(`downloading Elasticsearch ${ES_VERSION} (${ES_ARTIFACT}) …`);
  // Looked up first: spawning a missing command with a timeout leaves Node's kill timer running.
  const result = onPath('mvn')
    ? await exec('mvn', ['-q', '-B', 'dependency:copy', `-Dartifact=${ES_ARTIFACT}`, `-DoutputDirectory=${folder}`]).catch(() => undefined)
    : undefined;
  if (result === undefined) {
    throw new ConfigurationError(
      'FOLIO_ES_NO_MAVEN',
      `Downloading Elasticsearch ${ES_VERSION} needs Maven (\`mvn\` on the PATH), which fetches ${ES_ARTIFACT} from the repositories it is configured with; install Maven (e.g. \`apt-get install maven\`), or set ELASTICSEARCH_URL to a running cluster`,
      { meta: { artifact: ES_ARTIFACT } },
    );
  }
  if (result.code !== 0 || !existsSync(zip)) {
    throw new ConfigurationError('FOLIO_ES_DOWNLOAD', `mvn could not download ${ES_ARTIFACT} (exit ${result.code}):\n${tail(result.output)}`, {
      meta: { artifact: ES_ARTIFACT },
    });
  }
}

/** Whether `command` is an executable file in a folder of the PATH. */
function onPath(command: string): boolean {
  return (process.env['PATH'] ?? '').split(delimiter).some((folder) => {
    if (folder === '') return false;
    try {
      accessSync(join(folder, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

async function unpack(layout: EsLayout, javaHome: string, log: (line: string) => void): Promise<void> {
  const staging = `${layout.home}.unpacking-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  log(`unpacking into ${layout.home} …`);
  try {
    let result;
    try {
      result = await exec('unzip', ['-q', '-o', layout.zip, '-d', staging]);
    } catch {
      // No unzip on this machine: the JDK's jar tool reads zips too, but drops the exec bits.
      result = await exec(join(javaHome, 'bin', 'jar'), ['xf', layout.zip], { cwd: staging });
    }
    if (result.code !== 0) throw new Error(`unzip exit ${result.code}: ${tail(result.output, 5)}`);
    const [inner] = readdirSync(staging);
    if (inner === undefined) throw new Error(`${layout.zip} is empty`);
    const bin = join(staging, inner, 'bin');
    for (const name of readdirSync(bin)) chmodSync(join(bin, name), 0o755);
    // Another launcher may have won the race; theirs is as good as ours.
    if (!existsSync(layout.home)) renameSync(join(staging, inner), layout.home);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
