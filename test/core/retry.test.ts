import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errors } from '@elastic/elasticsearch';
import { urlSource } from '../../connector/index.ts';
import { backoffMs, isTransientError, isTransientStatus, RetriesExhausted, withRetry } from '../../core/retry.ts';
import { createRemoteEmbedder } from '../../inference/embed/index.ts';

/** A port nothing listens on: connecting is refused. */
async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

const withCode = (code: string): Error => Object.assign(new Error(`connect ${code}`), { code });

describe('the one retry policy (core/retry.ts)', () => {
  it('should treat exactly 429, 502, 503 and 504 as transient statuses', () => {
    const transient = [200, 400, 404, 408, 413, 429, 500, 501, 502, 503, 504, 505].filter(isTransientStatus);
    assert.deepEqual(transient, [429, 502, 503, 504]);
  });

  it('should treat timeouts and reset or refused connections as transient, wherever the code sits', () => {
    assert.equal(isTransientError(new TypeError('fetch failed', { cause: withCode('ECONNREFUSED') })), true);
    assert.equal(isTransientError(withCode('ECONNRESET')), true);
    assert.equal(isTransientError(new DOMException('timed out', 'TimeoutError')), true, 'what AbortSignal.timeout throws');
    assert.equal(isTransientError(Object.assign(new Error('t'), { name: 'TimeoutError' })), true);
    assert.equal(isTransientError(new TypeError('fetch failed', { cause: withCode('ENOTFOUND') })), false);
    assert.equal(isTransientError(new Error('bad answer')), false);
    // The Elasticsearch client's own classes follow the same list.
    assert.equal(isTransientError(new errors.ConnectionError('down')), true);
    assert.equal(isTransientError(new errors.ResponseError({ statusCode: 503, body: {}, headers: {}, warnings: null, meta: {} as never })), true);
    assert.equal(isTransientError(new errors.ResponseError({ statusCode: 500, body: {}, headers: {}, warnings: null, meta: {} as never })), false);
  });

  it('should back off exponentially with jitter between half and all of the ceiling', () => {
    const policy = { retries: 5, baseDelayMs: 100, maxDelayMs: 1000 };
    assert.equal(
      backoffMs(policy, 1, undefined, () => 0),
      50,
    );
    assert.equal(
      backoffMs(policy, 1, undefined, () => 1),
      100,
    );
    assert.equal(
      backoffMs(policy, 3, undefined, () => 1),
      400,
    );
    assert.equal(
      backoffMs(policy, 9, undefined, () => 1),
      1000,
    );
    assert.equal(
      backoffMs(policy, 1, 700, () => 0),
      700,
      'Retry-After wins when longer',
    );
    assert.equal(
      backoffMs(policy, 1, 5000, () => 0),
      1000,
      'but never past the longest wait',
    );
  });

  it('should retry a transient failure a bounded number of times, then give up with the last error', async () => {
    let calls = 0;
    await assert.rejects(
      withRetry(
        async () => {
          calls++;
          throw withCode('ECONNRESET');
        },
        { retries: 2, baseDelayMs: 1 },
      ),
      (error: unknown) => error instanceof RetriesExhausted && error.attempts === 3 && (error.cause as Error).message.includes('ECONNRESET'),
    );
    assert.equal(calls, 3);
  });

  it('should not retry a permanent failure', async () => {
    let calls = 0;
    await assert.rejects(
      withRetry(
        async () => {
          calls++;
          throw new Error('HTTP 400');
        },
        { retries: 3, baseDelayMs: 1 },
      ),
      /HTTP 400/,
    );
    assert.equal(calls, 1);
  });

  it('should wait at least what Retry-After asks', async () => {
    let calls = 0;
    const started = performance.now();
    const value = await withRetry(
      async () => {
        if (calls++ === 0) throw Object.assign(new Error('HTTP 429'), { status: 429, retryAfterMs: 200 });
        return 'ok';
      },
      { retries: 1, baseDelayMs: 1 },
    );
    assert.equal(value, 'ok');
    assert.ok(performance.now() - started >= 190, 'waited for Retry-After');
  });

  it('should make the URL connector and the remote embedder agree: a refused connection is retried', async () => {
    const url = await refusedUrl();
    const items = [];
    for await (const item of urlSource([`${url}/a.pdf`], { retries: 2, retryDelayMs: 1 })) items.push(item);
    assert.equal(items.length, 1);
    assert.match((items[0] as { reason: string }).reason, /ECONNREFUSED.*after 3 attempts/);
    await assert.rejects(createRemoteEmbedder({ url, model: 'm', retries: 2, retryDelayMs: 1 }), /gave up after 3 attempts.*fetch failed/);
  });
});
