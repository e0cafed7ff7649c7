/**
 * A pass-through HTTP proxy that counts object downloads (GETs other than listings) on their way
 * to the S3 server: the bench's evidence that a re-sync downloads nothing. Headers go through as
 * they are, the Host header included, because S3 signatures cover it.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingProxy {
  readonly url: string;
  /** Object GETs and listing GETs seen since the last `reset`. */
  readonly counts: { downloads: number; listings: number };
  reset(): void;
  close(): Promise<void>;
}

export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const upstream = new URL(target);
  const counts = { downloads: 0, listings: 0 };
  const server = createServer((req, res) => {
    if (req.method === 'GET') {
      if ((req.url ?? '').includes('list-type=')) counts.listings++;
      else counts.downloads++;
    }
    const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => req.socket.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    reset: () => {
      counts.downloads = 0;
      counts.listings = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
