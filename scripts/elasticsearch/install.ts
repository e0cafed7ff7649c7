/**
 * Download and unpack the pinned Elasticsearch once into the cache. Maven does the download (it
 * verifies checksums and honours the machine's mirror settings); where `mvn` is missing we fetch
 * the same file from Maven Central directly and check its SHA-1 ourselves.
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigurationError } from '../../core/errors.ts';
import { ES_ARTIFACT, ES_VERSION } from './config.ts';
import type { EsLayout } from './config.ts';
import { exec, tail } from './exec.ts';

/** Where the direct download falls back to. */
const MAVEN_CENTRAL = 'https://repo1.maven.org/maven2';

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
  let result;
  try {
    result = await exec('mvn', ['-q', '-B', 'dependency:copy', `-Dartifact=${ES_ARTIFACT}`, `-DoutputDirectory=${folder}`]);
  } catch {
    result = undefined; // mvn is not installed
  }
  if (result === undefined) {
    log('mvn not found; downloading from Maven Central directly');
    await fetchFromCentral(zip);
    return;
  }
  if (result.code !== 0 || !existsSync(zip)) {
    throw new ConfigurationError(
      'FOLIO_ES_DOWNLOAD',
      `mvn could not download ${ES_ARTIFACT} (exit ${result.code}):\n${tail(result.output)}`,
      { meta: { artifact: ES_ARTIFACT } },
    );
  }
}

async function fetchFromCentral(zip: string): Promise<void> {
  const url = `${MAVEN_CENTRAL}/org/elasticsearch/distribution/integ-test-zip/elasticsearch/${ES_VERSION}/elasticsearch-${ES_VERSION}.zip`;
  try {
    const [body, sha1] = await Promise.all([
      fetch(url).then(async (response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return new Uint8Array(await response.arrayBuffer());
      }),
      fetch(`${url}.sha1`).then(async (response) => (response.ok ? (await response.text()).trim().slice(0, 40) : undefined)),
    ]);
    const actual = createHash('sha1').update(body).digest('hex');
    if (sha1 !== undefined && sha1 !== actual) throw new Error(`SHA-1 mismatch: expected ${sha1}, got ${actual}`);
    writeFileSync(`${zip}.part`, body);
    renameSync(`${zip}.part`, zip);
  } catch (error) {
    throw new ConfigurationError('FOLIO_ES_DOWNLOAD', `Could not download ${url}: ${(error as Error).message}`, { cause: error });
  }
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
