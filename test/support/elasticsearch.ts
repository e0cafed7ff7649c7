/**
 * Test helpers for the real Elasticsearch the global setup provides: its URL, a shared client and
 * uniquely named throwaway indices that are deleted after each test.
 */
import { randomBytes } from 'node:crypto';
import { Client } from '@elastic/elasticsearch';

let shared: Client | undefined;

/**
 * The cluster the global setup started or found (`ELASTICSEARCH_URL`). Inside a mocha hook or
 * test, pass `this` to skip the test when no cluster was provided (`FOLIO_TEST_ES=skip`).
 *
 * @example
 * const url = esUrl()
 */
export function esUrl(context?: Mocha.Context): string {
  const url = process.env['ELASTICSEARCH_URL'];
  if (url) return url;
  if (context !== undefined) context.skip();
  throw new Error('ELASTICSEARCH_URL is not set: the mocha global setup (test/global-setup.ts) did not run or FOLIO_TEST_ES=skip');
}

/** One client for all tests, without client-side retries so tests see faults as they are. */
export function esClient(): Client {
  shared ??= new Client({ node: esUrl(), maxRetries: 0, requestTimeout: 30_000 });
  return shared;
}

/** A fresh lowercase index name; tests in parallel never collide. */
export function uniqueIndexName(prefix = 'folio-test'): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/**
 * Delete every index and index template whose name starts with `prefix` (the chunk index and its
 * `-documents`/`-failures` siblings). Explicit names, because wildcard deletes are refused by
 * default (`action.destructive_requires_name`).
 */
export async function deleteIndices(prefix: string, client: Client = esClient()): Promise<void> {
  const indices = await client.indices.get({ index: `${prefix}*`, expand_wildcards: 'all' }, { ignore: [404] });
  const names = Object.keys(indices ?? {});
  if (names.length > 0) await client.indices.delete({ index: names, ignore_unavailable: true });
  const templates = await client.indices.getIndexTemplate({ name: `${prefix}*` }, { ignore: [404] });
  for (const { name } of templates.index_templates ?? []) {
    await client.indices.deleteIndexTemplate({ name }, { ignore: [404] });
  }
}

/** Delete every ingest pipeline whose id starts with `prefix` (a plugin test's pipelines). */
export async function deletePipelines(prefix: string, client: Client = esClient()): Promise<void> {
  const pipelines = await client.ingest.getPipeline({ id: `${prefix}*` }, { ignore: [404] });
  for (const id of Object.keys(pipelines ?? {})) await client.ingest.deletePipeline({ id });
}

/** A throwaway index name, with the names of its sibling indices, renewed per test. */
export interface ThrowawayIndex {
  /** The chunk index. */
  readonly name: string;
  readonly documents: string;
  readonly failures: string;
}

/**
 * Inside a `describe`: a uniquely named index per test, deleted (with its siblings and
 * templates) after the test.
 *
 * @example
 * const index = throwawayIndex()
 * it('indexes', async () => { await sink({ index: index.name }) })
 */
export function throwawayIndex(prefix = 'folio-test'): ThrowawayIndex {
  let name = '';
  beforeEach(function () {
    esUrl(this);
    name = uniqueIndexName(prefix);
  });
  afterEach(async () => {
    if (name !== '' && process.env['ELASTICSEARCH_URL']) await deleteIndices(name);
  });
  return {
    get name() {
      return name;
    },
    get documents() {
      return `${name}-documents`;
    },
    get failures() {
      return `${name}-failures`;
    },
  };
}

/**
 * Run `fn` with a fresh index name and delete what it created afterwards, pass or fail.
 *
 * @example
 * await withIndex(async (index) => { ... })
 */
export async function withIndex<T>(fn: (index: string) => Promise<T>, prefix = 'folio-test'): Promise<T> {
  const name = uniqueIndexName(prefix);
  try {
    return await fn(name);
  } finally {
    await deleteIndices(name);
  }
}
