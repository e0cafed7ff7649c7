/**
 * Why the plugin ships `entitlement-policy.yaml`: the same build without it, installed in a
 * second server, cannot open a connection to folio serve (Elasticsearch 9 entitlements).
 */
import assert from 'node:assert/strict';
import { chmod, copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@elastic/elasticsearch';
import { exec } from '../../scripts/elasticsearch/exec.ts';
import { buildPlugin, esLayout, findJavaHome, startElasticsearch, stopElasticsearch } from '../../scripts/elasticsearch/index.ts';
import { esClient, esUrl } from '../support/elasticsearch.ts';

/** The simulate error of a folio processor pointed at a port nothing listens on. */
async function failureAgainstClosedPort(client: Client): Promise<string> {
  const result = await client.ingest.simulate({
    // max_wait short: a refused connection is retried as transient until max_wait is spent.
    pipeline: { processors: [{ folio: { field: 'data', server: ['http://127.0.0.1:9'], timeout: '5s', max_wait: '1s' } }] as never },
    docs: [{ _index: 'sim', _id: '1', _source: { data: Buffer.from('%PDF-1.4').toString('base64') } }],
  });
  return JSON.stringify(result.docs[0]?.error ?? result.docs[0]);
}

describe('the plugin without its entitlement policy', function () {
  this.timeout(300_000);
  let root = '';
  let layout: ReturnType<typeof esLayout> | undefined;
  let client: Client | undefined;

  before(async function () {
    esUrl(this);
    const javaHome = findJavaHome();
    root = await mkdtemp(join(tmpdir(), 'folio-es-no-policy-'));
    // The broken build: the real zip less entitlement-policy.yaml.
    const { zip } = await buildPlugin({ javaHome });
    const unpacked = join(root, 'unpacked');
    await mkdir(unpacked);
    assert.equal((await exec(join(javaHome, 'bin', 'jar'), ['xf', zip], { cwd: unpacked })).code, 0);
    assert.ok((await readdir(unpacked)).includes('entitlement-policy.yaml'));
    await rm(join(unpacked, 'entitlement-policy.yaml'));
    const broken = join(root, 'folio-ingest-no-policy.zip');
    assert.equal((await exec(join(javaHome, 'bin', 'jar'), ['-c', '-M', '-f', broken, '-C', unpacked, '.'])).code, 0);
    // The second server reuses the suite's download instead of fetching it again.
    await chmod(root, 0o755);
    layout = esLayout({ root });
    const cached = esLayout();
    await mkdir(join(layout.zip, '..'), { recursive: true });
    await copyFile(cached.zip, layout.zip);
    const running = await startElasticsearch({ layout, pluginZip: broken });
    client = new Client({ node: running.url, maxRetries: 0, requestTimeout: 30_000 });
  });
  after(async () => {
    await client?.close();
    if (layout) await stopElasticsearch({ layout });
    if (root !== '') await rm(root, { recursive: true, force: true });
  });

  it('should be refused the outbound connection, where the policy-carrying build only finds the port closed', async () => {
    const without = await failureAgainstClosedPort(client!);
    assert.match(without, /NotEntitledException/, without);
    assert.match(without, /outbound_network/, without);
    const withPolicy = await failureAgainstClosedPort(esClient());
    assert.match(withPolicy, /connection failed/, withPolicy);
    assert.doesNotMatch(withPolicy, /NotEntitled/);
  });
});
