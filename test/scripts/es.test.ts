import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { EsLayout } from '../../scripts/elasticsearch/index.ts';
import {
  clusterHealth,
  ES_VERSION,
  esLayout,
  findJavaHome,
  isReady,
  javaMajor,
  pluginSourceHash,
  REPO_ROOT,
  startElasticsearch,
  stopElasticsearch,
} from '../../scripts/elasticsearch/index.ts';
import { esUrl } from '../support/elasticsearch.ts';

describe('esLayout', () => {
  it('should keep everything under the cache folder, the server files under serverRoot', () => {
    const layout = esLayout({ root: '/c', serverRoot: '/s' });
    assert.equal(layout.zip, `/c/download/elasticsearch-${ES_VERSION}.zip`);
    assert.equal(layout.urlFile, '/c/run/url');
    assert.equal(layout.home, `/s/elasticsearch-${ES_VERSION}`);
    assert.equal(layout.data, '/s/data');
    assert.equal(esLayout().root, join(REPO_ROOT, '.cache', 'elasticsearch'));
  });
});

describe('findJavaHome', () => {
  it('should reject an ES_JAVA_HOME that is not a JDK 21+', () => {
    assert.throws(() => findJavaHome({ ES_JAVA_HOME: '/nonexistent' }), {
      name: 'ConfigurationError',
      code: 'FOLIO_ES_NO_JAVA',
      message: /ES_JAVA_HOME=\/nonexistent is not a JDK 21 or newer/,
    });
  });

  it('should find a JDK 21+ on this machine', () => {
    assert.ok((javaMajor(findJavaHome({})) ?? 0) >= 21);
  });
});

describe('isReady', () => {
  it('should accept green, and yellow only for unassignable replicas', () => {
    assert.equal(isReady({ status: 'green', initializing_shards: 0, number_of_nodes: 1 }), true);
    assert.equal(isReady({ status: 'yellow', unassigned_primary_shards: 0, initializing_shards: 0, number_of_nodes: 1 }), true);
    assert.equal(isReady({ status: 'yellow', unassigned_primary_shards: 1, initializing_shards: 0, number_of_nodes: 1 }), false);
    assert.equal(isReady({ status: 'red', initializing_shards: 0, number_of_nodes: 1 }), false);
    assert.equal(isReady(undefined), false);
  });
});

describe('startElasticsearch', () => {
  let root = '';
  let layout: EsLayout;
  let busy: Server | undefined;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'folio-es-launcher-'));
    layout = esLayout({ root });
  });
  afterEach(async () => {
    busy?.close();
    busy = undefined;
    await rm(root, { recursive: true, force: true });
  });

  it('should reuse the live cluster the URL file names, and not claim to have started it', async function () {
    const url = esUrl(this);
    // A cluster that needs auth would not look ready, and the launcher would start its own.
    if (!isReady(await clusterHealth(url))) this.skip();
    await mkdir(layout.run, { recursive: true });
    await writeFile(layout.urlFile, `${url}\n`);
    const running = await startElasticsearch({ layout });
    assert.deepEqual({ url: running.url, started: running.started }, { url, started: false });
  });

  it('should fail fast, naming the port, when the port is taken', async () => {
    busy = createServer();
    await new Promise<void>((resolve) => busy!.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as { port: number };
    await assert.rejects(startElasticsearch({ layout, port }), {
      name: 'ConfigurationError',
      code: 'FOLIO_ES_PORT_IN_USE',
      message: new RegExp(`Port ${port} on 127.0.0.1 is already in use`),
    });
  });

  it('should name the option and value when invalid', async () => {
    await assert.rejects(startElasticsearch({ layout, heapMb: 64 }), /Expected `heapMb` to be an integer of at least 128, got `64` \(number\)/);
    await assert.rejects(startElasticsearch({ layout, port: 70000 }), /Expected `port` to be an integer from 1 to 65535, got `70000`/);
    await assert.rejects(startElasticsearch({ layout, nodes: 0 }), /Expected `nodes` to be an integer from 1 to 9, got `0`/);
  });
});

describe('stopElasticsearch', () => {
  let root = '';
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'folio-es-stop-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('should say nothing was running without a pidfile', async () => {
    assert.equal(await stopElasticsearch({ layout: esLayout({ root }) }), false);
  });

  it('should never signal a pid that is not an Elasticsearch', async () => {
    const layout = esLayout({ root });
    await mkdir(layout.run, { recursive: true });
    // Our own pid: alive, but not a server; a stale pidfile must not get it killed.
    await writeFile(layout.pidFile, `${process.pid}\n`);
    assert.equal(await stopElasticsearch({ layout }), false);
  });
});

describe('scripts/es.ts', () => {
  it('should print usage and exit 2 for an unknown command', async () => {
    const run = promisify(execFile);
    await assert.rejects(run(process.execPath, [join(REPO_ROOT, 'scripts', 'es.ts'), 'bogus']), (error: { code?: number; stderr?: string }) => {
      assert.equal(error.code, 2);
      assert.match(error.stderr ?? '', /usage: node scripts\/es.ts start\|stop\|status \(got `bogus`\)/);
      return true;
    });
  });
});

describe('pluginSourceHash', () => {
  it('should change with a source file and ignore the build output', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'folio-plugin-hash-'));
    try {
      await mkdir(join(dir, 'src'), { recursive: true });
      await writeFile(join(dir, 'pom.xml'), '<project/>');
      await writeFile(join(dir, 'src', 'A.java'), 'class A {}');
      const first = pluginSourceHash(dir);
      await mkdir(join(dir, 'target'));
      await writeFile(join(dir, 'target', 'x.zip'), 'built');
      await writeFile(join(dir, 'README.md'), 'docs');
      assert.equal(pluginSourceHash(dir), first, 'target/ and the README are not sources');
      await writeFile(join(dir, 'src', 'A.java'), 'class A { int x; }');
      assert.notEqual(pluginSourceHash(dir), first);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
