/**
 * Folio's ingest plugin in the local server: built with Maven from `elasticsearch-plugin/` (the
 * zip is cached by a hash of its sources, so a rerun with unchanged Java costs nothing) and
 * installed into a server home before that server starts. A home remembers which build it holds
 * in a marker file beside it, so a changed plugin is reinstalled (and a running server restarted).
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ConfigurationError } from '../../core/errors.ts';
import type { EsLayout } from './config.ts';
import { REPO_ROOT } from './config.ts';
import { exec, tail } from './exec.ts';
import type { RunAs } from './user.ts';

/** The plugin's Maven project. */
export const PLUGIN_DIR = join(REPO_ROOT, 'elasticsearch-plugin');
/** The `name` in its descriptor (what `_cat/plugins` lists). */
export const PLUGIN_NAME = 'folio-ingest';

/** Every file of the Maven project that goes into the build, `target/` left out. */
function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'target' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else files.push(path);
  }
  return files.sort();
}

/** A short hash of what the build reads (`pom.xml` and `src/`, paths and contents): a README edit changes nothing. */
export function pluginSourceHash(dir: string = PLUGIN_DIR): string {
  const hash = createHash('sha256');
  const inputs = [join(dir, 'pom.xml'), ...(existsSync(join(dir, 'src')) ? sourceFiles(join(dir, 'src')) : [])];
  for (const file of inputs) hash.update(relative(dir, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 16);
}

export interface BuildPluginOptions {
  /** The JDK Maven compiles with (21 or newer). */
  readonly javaHome: string;
  /** Where built zips are kept. @default `<repo>/.cache/elasticsearch/plugin` */
  readonly cacheDir?: string;
  /** @default no-op */
  readonly log?: (line: string) => void;
}

/**
 * The installable zip for the current sources: from the cache, or `mvn package` (which runs the
 * plugin's JUnit tests too) when the sources changed.
 *
 * @example
 * const { zip, hash } = await buildPlugin({ javaHome: findJavaHome() })
 */
export async function buildPlugin(options: Readonly<BuildPluginOptions>): Promise<{ zip: string; hash: string }> {
  const { javaHome, cacheDir = join(REPO_ROOT, '.cache', 'elasticsearch', 'plugin'), log = () => {} } = options;
  const hash = pluginSourceHash();
  const zip = join(cacheDir, `${PLUGIN_NAME}-${hash}.zip`);
  if (existsSync(zip)) return { zip, hash };
  log(`building the ${PLUGIN_NAME} plugin (mvn package in ${relative(REPO_ROOT, PLUGIN_DIR)}) …`);
  const began = Date.now();
  let result;
  try {
    result = await exec('mvn', ['-B', '-q', 'package'], { cwd: PLUGIN_DIR, env: { ...process.env, JAVA_HOME: javaHome }, timeoutMs: 600_000 });
  } catch (error) {
    throw new ConfigurationError('FOLIO_ES_PLUGIN_BUILD', `Cannot build the ${PLUGIN_NAME} plugin: mvn is not installed (apt-get install maven)`, {
      cause: error,
    });
  }
  const target = join(PLUGIN_DIR, 'target');
  const built = existsSync(target)
    ? readdirSync(target)
        .filter((name) => name.endsWith('.zip'))
        .map((name) => join(target, name))
    : [];
  if (result.code !== 0 || built.length === 0) {
    throw new ConfigurationError('FOLIO_ES_PLUGIN_BUILD', `mvn package of the ${PLUGIN_NAME} plugin failed (exit ${result.code}):\n${tail(result.output, 40)}`);
  }
  const newest = built.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]!;
  mkdirSync(cacheDir, { recursive: true });
  copyFileSync(newest, `${zip}.part`);
  rmSync(zip, { force: true });
  copyFileSync(`${zip}.part`, zip);
  rmSync(`${zip}.part`, { force: true });
  log(`built ${PLUGIN_NAME} in ${((Date.now() - began) / 1000).toFixed(1)} s`);
  return { zip, hash };
}

/** The marker beside a server home naming the plugin build installed in it. */
export function installedMarker(home: string): string {
  return `${home}.${PLUGIN_NAME}.hash`;
}

/** The hash of the plugin build installed in `home`, if any. */
export function installedPluginHash(home: string): string | undefined {
  try {
    return readFileSync(installedMarker(home), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

export interface InstallPluginOptions {
  readonly layout: EsLayout;
  readonly zip: string;
  readonly hash: string;
  readonly javaHome: string;
  /** Install as the server's user (its files must be the server's). */
  readonly user: RunAs | undefined;
  /** @default no-op */
  readonly log?: (line: string) => void;
}

/** Install the zip into the (stopped) server at `layout.home`, replacing an older build. */
export async function installPlugin(options: Readonly<InstallPluginOptions>): Promise<void> {
  const { layout, zip, hash, javaHome, user, log = () => {} } = options;
  if (installedPluginHash(layout.home) === hash && existsSync(join(layout.home, 'plugins', PLUGIN_NAME))) return;
  const asUser = user === undefined ? {} : { uid: user.uid, gid: user.gid };
  const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: layout.serverRoot, ES_JAVA_HOME: javaHome };
  const tool = join(layout.home, 'bin', 'elasticsearch-plugin');
  if (existsSync(join(layout.home, 'plugins', PLUGIN_NAME))) {
    const removed = await exec(tool, ['remove', PLUGIN_NAME], { cwd: layout.home, env, ...asUser });
    if (removed.code !== 0) rmSync(join(layout.home, 'plugins', PLUGIN_NAME), { recursive: true, force: true });
  }
  // The server's user must be able to read the zip: copy it beside the home it installs into.
  const local = join(layout.serverRoot, `${PLUGIN_NAME}-${hash}.zip`);
  copyFileSync(zip, local);
  if (user !== undefined) await exec('chown', [`${user.uid}:${user.gid}`, local]);
  log(`installing the ${PLUGIN_NAME} plugin (${hash}) into ${layout.home} …`);
  // --batch: without a terminal the installer would stop at its permissions question.
  const result = await exec(tool, ['install', '--batch', `file://${local}`], { cwd: layout.home, env, ...asUser });
  rmSync(local, { force: true });
  if (result.code !== 0) {
    throw new ConfigurationError('FOLIO_ES_PLUGIN_INSTALL', `elasticsearch-plugin install of ${zip} failed (exit ${result.code}):\n${tail(result.output, 20)}`);
  }
  writeFileSync(installedMarker(layout.home), `${hash}\n`);
}
