/**
 * The README's plugin quick start, run as written against the Elasticsearch the suite launched:
 * its shell lines (the launcher, `folio serve` in the background, `folio mappings install`) and
 * its Kibana-console requests. Only the URL is the suite's cluster's where it is not
 * `127.0.0.1:9200`, and a `folio serve` already answering on the configured port is used as it is.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { exec } from '../../scripts/elasticsearch/exec.ts';
import { runningUrl } from '../../scripts/elasticsearch/index.ts';
import { deleteIndices, esClient, esUrl } from '../support/elasticsearch.ts';

const README_URL = 'http://127.0.0.1:9200';

/** The fenced blocks between the quick-start markers: shell lines, then console requests. */
async function quickStart(): Promise<{ shell: string[]; requests: { method: string; path: string; body?: unknown }[] }> {
  const readme = await readFile('README.md', 'utf8');
  const section = /<!-- plugin-quickstart -->([\s\S]*?)<!-- \/plugin-quickstart -->/.exec(readme)?.[1];
  assert.ok(section, 'README.md has the plugin-quickstart markers');
  const blocks = [...section.matchAll(/```(\w*)\n([\s\S]*?)```/g)];
  const shell = (blocks.find((b) => b[1] === 'sh')?.[2] ?? '')
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
  const consoleText = blocks.find((b) => b[1] === '')?.[2] ?? '';
  const requests: { method: string; path: string; body?: unknown }[] = [];
  for (const part of consoleText.split(/^(?=(?:GET|PUT|POST|DELETE) )/m).filter((p) => p.trim())) {
    const [line, ...rest] = part.split('\n');
    const [method, path] = line!.trim().split(/\s+/);
    const body = rest.join('\n').trim();
    requests.push({ method: method!, path: path!, ...(body ? { body: JSON.parse(body) } : {}) });
  }
  return { shell, requests };
}

describe("the README's plugin quick start, as written", function () {
  this.timeout(300_000);
  let serve: ChildProcess | undefined;

  before(function () {
    esUrl(this);
  });
  after(async () => {
    // npx runs folio in a child of its own: stop the whole group, or folio serve outlives the test.
    if (serve?.pid !== undefined) process.kill(-serve.pid, 'SIGTERM');
    await deleteIndices('docs');
    await esClient().ingest.deletePipeline({ id: 'docs' }, { ignore: [404] });
  });

  it('should index the example document with its Markdown and chunks', async () => {
    const { shell, requests } = await quickStart();
    assert.deepEqual(
      shell.map((line) => line.split(' ').slice(0, 3).join(' ')),
      ['npm run es:start', 'npx folio serve', 'npx folio mappings'],
    );
    const url = esUrl();
    const here = (line: string): string => line.replaceAll(README_URL, url);
    await deleteIndices('docs');
    for (const line of shell) {
      if (line.startsWith('npm run es:start')) {
        // Run only where the suite's cluster is the launcher's (then it is reused, not restarted);
        // a cluster given by ELASTICSEARCH_URL is used as it is.
        if ((await runningUrl()) !== url) continue;
        const started = await exec('npm', ['run', '-s', 'es:start'], { timeoutMs: 240_000 });
        assert.equal(started.code, 0, started.output);
        continue;
      }
      if (line.endsWith('&')) {
        const servers = await configuredServers();
        if (await answers(servers[0]!)) continue;
        const [command, ...args] = line.slice(0, -1).trim().split(/\s+/);
        serve = spawn(command!, args, { stdio: 'ignore', detached: true });
        for (let i = 0; i < 240 && !(await answers(servers[0]!)); i++) await sleep(500);
        assert.ok(await answers(servers[0]!), `\`${line}\` answers on ${servers[0]} (folio.servers)`);
        continue;
      }
      const [command, ...args] = here(line).split(/\s+/);
      const result = await exec(command!, args, { timeoutMs: 120_000 });
      assert.equal(result.code, 0, `${line}: ${result.output}`);
    }
    let last: unknown;
    for (const { method, path, body } of requests) {
      const response = await fetch(`${url}/${path}`, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      });
      last = await response.json();
      assert.ok(response.ok, `${method} ${path}: ${response.status} ${JSON.stringify(last)}`);
    }
    const doc = last as { _index: string; _source: { data?: string; folio?: { markdown?: string; chunks?: { text: string; vector?: number[] }[] } } };
    assert.equal(doc._index, 'docs');
    assert.match(doc._source.folio?.markdown ?? '', /^# Hello from Folio/m);
    assert.ok((doc._source.folio?.chunks?.length ?? 0) > 0);
    assert.equal(doc._source.data, undefined, 'the binary is removed once converted');
  });
});

/** The `folio.servers` node setting the launcher gave the cluster. */
async function configuredServers(): Promise<string[]> {
  const nodes = (await esClient().nodes.info({ metric: 'settings', flat_settings: true })).nodes;
  const servers = Object.values(nodes).map((node) => (node.settings as unknown as Record<string, string>)['folio.servers']);
  assert.ok(servers[0], `the launched cluster has folio.servers set: ${JSON.stringify(servers)}`);
  return servers[0]!.split(',');
}

/** Whether a folio serve answers at `url`. */
async function answers(url: string): Promise<boolean> {
  try {
    const health = (await (await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) })).json()) as { status?: string; convert?: unknown };
    return health.status === 'ok' && health.convert !== undefined;
  } catch {
    return false;
  }
}
