/**
 * A stub HTTP proxy in front of the real Elasticsearch, for fault injection only: each request is
 * forwarded, or answered with an error status, or answered with per-item 429s (as an overloaded
 * node does in `_bulk`), or has its connection dropped, as the test's `decide` says.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** `hold`: forward once the promise settles (a slow node, under the test's control). */
export type FaultAction = 'forward' | 'drop' | 'item429' | { readonly status: number } | { readonly hold: Promise<void> };

export interface ProxiedRequest {
  readonly method: string;
  readonly path: string;
  readonly body: string;
  /** 1-based count of requests seen so far, this one included. */
  readonly n: number;
}

export interface FaultProxy {
  readonly url: string;
  /** What happened to each request, in order: `METHOD path -> action`. */
  readonly log: string[];
  decide: (request: ProxiedRequest) => FaultAction;
  close(): Promise<void>;
}

/**
 * @example
 * const proxy = await startFaultProxy(esUrl(), ({ n }) => (n > 3 ? 'drop' : 'forward'))
 */
export async function startFaultProxy(
  target: string,
  decide: (request: ProxiedRequest) => FaultAction = () => 'forward',
  options: Readonly<{ keepHost?: boolean }> = {},
): Promise<FaultProxy> {
  const upstream = new URL(target);
  // A signed request (S3's SigV4 signs the Host header) must reach the server as it was signed.
  const host = options.keepHost === true ? undefined : upstream.host;
  let n = 0;
  const log: string[] = [];
  const proxy: { decide: (request: ProxiedRequest) => FaultAction } = { decide };
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      n += 1;
      const body = Buffer.concat(parts);
      const info = { method: req.method ?? 'GET', path: req.url ?? '/', body: body.toString('utf8'), n };
      const action = proxy.decide(info);
      log.push(`${info.method} ${info.path} -> ${typeof action === 'string' ? action : 'status' in action ? action.status : 'hold'}`);
      if (typeof action === 'object' && 'hold' in action) {
        void action.hold.then(() => forward(upstream, host, req, body, res));
      } else if (action === 'drop') {
        req.socket.destroy();
      } else if (action === 'item429') {
        reply(res, 200, bulkOf429(info.body));
      } else if (typeof action === 'object') {
        reply(res, action.status, { error: { type: 'test_fault', reason: `injected ${action.status} by the test proxy` }, status: action.status });
      } else {
        forward(upstream, host, req, body, res);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    get decide() {
      return proxy.decide;
    },
    set decide(next) {
      proxy.decide = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  // The client refuses 2xx answers without this header (its product check).
  res.writeHead(status, { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch' });
  res.end(JSON.stringify(body));
}

/** A `_bulk` answer rejecting every operation with 429, like a node whose write queue is full. */
function bulkOf429(ndjson: string): unknown {
  const lines = ndjson.split('\n').filter((line) => line !== '');
  const items: unknown[] = [];
  for (let i = 0; i < lines.length; i += 2) {
    const action = JSON.parse(lines[i]!) as { index?: { _index?: string; _id?: string } };
    items.push({
      index: {
        _index: action.index?._index,
        _id: action.index?._id,
        status: 429,
        error: { type: 'es_rejected_execution_exception', reason: 'rejected by the test proxy' },
      },
    });
  }
  return { errors: true, took: 1, items };
}

function forward(upstream: URL, host: string | undefined, req: IncomingMessage, body: Buffer, res: ServerResponse): void {
  const { connection: _hopByHop, ...headers } = req.headers;
  // A fresh upstream connection per request: a reused idle one may be closed under us, which
  // would look like an injected fault.
  const out = request(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers: host === undefined ? headers : { ...headers, host },
      agent: false,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  out.on('error', () => req.socket.destroy());
  out.end(body);
}
