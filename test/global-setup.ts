/**
 * Mocha root hooks for the whole suite: a real Elasticsearch for the tests that index.
 *
 * With `ELASTICSEARCH_URL` set, that cluster is used and left alone. Otherwise the local launcher
 * reuses the server `npm run es:start` left running, or starts one (about 30–50 s the first time)
 * and stops it again at the end. `FOLIO_TEST_ES=skip` starts nothing: tests that need the cluster
 * then skip themselves (see `test/support/elasticsearch.ts`).
 */
import { startElasticsearch, stopElasticsearch } from '../scripts/elasticsearch/index.ts';

let startedHere = false;

export async function mochaGlobalSetup(): Promise<void> {
  if (process.env['ELASTICSEARCH_URL']) return;
  if (process.env['FOLIO_TEST_ES'] === 'skip') return;
  const running = await startElasticsearch({ log: (line) => process.stderr.write(`  es: ${line}\n`) });
  process.env['ELASTICSEARCH_URL'] = running.url;
  startedHere = running.started;
}

export async function mochaGlobalTeardown(): Promise<void> {
  // Only what this run started: a server someone started by hand keeps running.
  if (startedHere) await stopElasticsearch();
}
