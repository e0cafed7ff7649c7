/**
 * `npm run es:start` / `npm run es:stop`: a local single-node Elasticsearch for development and
 * tests. `start` prints only the URL on stdout (so `export ELASTICSEARCH_URL=$(npm run -s es:start)`
 * works) and progress on stderr; it returns once the cluster is green.
 *
 * `start --nodes N` (or FOLIO_ES_NODES) starts an N-node cluster on loopback instead, with the
 * plugin on every node; `stop` stops both kinds.
 *
 * Environment: FOLIO_ES_PORT (default 9200 when free), FOLIO_ES_HEAP_MB (default 512),
 * FOLIO_SERVE_URL (the plugin's `folio.servers`, comma-separated; default http://127.0.0.1:8000),
 * FOLIO_ES_TIMEOUT_MS (default 180000), ES_JAVA_HOME (default: a JDK ≥ 21 under /usr/lib/jvm).
 */

import { parseArgs } from 'node:util';
import { describeError, errorCode } from '../core/errors.ts';
import { clusterLayout, esLayout, runningUrl, startElasticsearch, stopElasticsearch } from './elasticsearch/index.ts';

const log = (line: string): void => {
  process.stderr.write(`es: ${line}\n`);
};

function numberFromEnv(name: string): number | undefined {
  const raw = process.env[name];
  return raw === undefined || raw === '' ? undefined : Number(raw);
}

async function main(command: string | undefined, rest: readonly string[]): Promise<number> {
  switch (command) {
    case 'start': {
      const { values } = parseArgs({ args: [...rest], options: { nodes: { type: 'string' } }, strict: true });
      const nodes = values.nodes === undefined ? numberFromEnv('FOLIO_ES_NODES') : Number(values.nodes);
      const port = numberFromEnv('FOLIO_ES_PORT');
      const heapMb = numberFromEnv('FOLIO_ES_HEAP_MB');
      const timeoutMs = numberFromEnv('FOLIO_ES_TIMEOUT_MS');
      const serve = process.env['FOLIO_SERVE_URL'];
      const running = await startElasticsearch({
        log,
        ...(port === undefined ? {} : { port }),
        ...(heapMb === undefined ? {} : { heapMb }),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        ...(nodes === undefined ? {} : { nodes }),
        ...(serve ? { folioServers: serve.split(',').map((url) => url.trim()) } : {}),
      });
      process.stdout.write(`${running.urls.join(',')}\n`);
      return 0;
    }
    case 'stop': {
      const single = await stopElasticsearch({ log });
      const stopped = (await stopElasticsearch({ layout: clusterLayout(esLayout()), log })) || single;
      log(stopped ? 'stopped' : 'no Elasticsearch of ours was running');
      return 0;
    }
    case 'status': {
      const url = await runningUrl();
      if (url === undefined) {
        log('not running');
        return 1;
      }
      process.stdout.write(`${url}\n`);
      return 0;
    }
    default:
      log(`usage: node scripts/es.ts start|stop|status (got ${command === undefined ? 'nothing' : `\`${command}\``})`);
      return 2;
  }
}

try {
  process.exitCode = await main(process.argv[2], process.argv.slice(3));
} catch (error) {
  log(`${errorCode(error)}: ${describeError(error)}`);
  process.exitCode = 1;
}
