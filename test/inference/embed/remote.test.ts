import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteEmbedder, embeddingsUrl } from '../../../inference/embed/index.ts';

interface Call {
  body: { model: string; input: string[] };
  auth?: string;
}

/** A real HTTP server on loopback speaking the OpenAI embeddings protocol; `faults` are answered first. */
async function fakeServer(faults: number[] = []) {
  const calls: Call[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => {
      raw += d;
    });
    req.on('end', () => {
      const body = JSON.parse(raw) as Call['body'];
      calls.push({ body, ...(req.headers.authorization ? { auth: req.headers.authorization } : {}) });
      const fault = faults.shift();
      if (fault) {
        res.writeHead(fault).end('try later');
        return;
      }
      // Vector [len, 1, 0]: unnormalised on purpose, the embedder must normalise.
      const data = body.input.map((text, index) => ({ object: 'embedding', index, embedding: [text.length, 1, 0] })).reverse();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: body.model }));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, calls, close: () => new Promise<void>((done) => server.close(() => done())) };
}

describe('embeddingsUrl', () => {
  it('should append /embeddings to a base URL once', () => {
    assert.equal(embeddingsUrl('http://h/v1'), 'http://h/v1/embeddings');
    assert.equal(embeddingsUrl('http://h/v1/'), 'http://h/v1/embeddings');
    assert.equal(embeddingsUrl('http://h/v1/embeddings'), 'http://h/v1/embeddings');
    assert.throws(() => embeddingsUrl('not a url'), /`url`/);
  });
});

describe('createRemoteEmbedder', () => {
  it('should batch, keep order by index, normalise and learn the dimensions', async () => {
    const server = await fakeServer();
    try {
      const embedder = await createRemoteEmbedder({ url: server.url, model: 'jina-embeddings-v3', apiKey: 'k', batchSize: 2 });
      assert.equal(embedder.dims, 3);
      const vectors = await embedder.embed(['abc', 'a', 'abcd']);
      assert.equal(server.calls.length, 3); // probe + two batches
      assert.deepEqual(
        server.calls.slice(1).map((c) => c.body.input),
        [['abc', 'a'], ['abcd']],
      );
      assert.equal(server.calls[1]!.body.model, 'jina-embeddings-v3');
      assert.equal(server.calls[1]!.auth, 'Bearer k');
      assert.ok(Math.abs(vectors[0]![0]! - 3 / Math.sqrt(10)) < 1e-6);
      assert.ok(Math.abs(vectors[1]![0]! - 1 / Math.sqrt(2)) < 1e-6);
    } finally {
      await server.close();
    }
  });

  it('should retry 429 and 5xx, then succeed', async () => {
    const server = await fakeServer([429, 503]);
    try {
      const embedder = await createRemoteEmbedder({ url: server.url, model: 'm', dims: 3, retries: 2, retryDelayMs: 1 });
      const [v] = await embedder.embed(['ab']);
      assert.equal(v!.length, 3);
      assert.equal(server.calls.length, 3);
    } finally {
      await server.close();
    }
  });

  it('should not retry a client error', async () => {
    const server = await fakeServer([400]);
    try {
      const embedder = await createRemoteEmbedder({ url: server.url, model: 'm', dims: 3, retries: 3 });
      await assert.rejects(embedder.embed(['x']), /HTTP 400/);
      assert.equal(server.calls.length, 1);
    } finally {
      await server.close();
    }
  });

  it('should reject vectors of the wrong size', async () => {
    const server = await fakeServer();
    try {
      const embedder = await createRemoteEmbedder({ url: server.url, model: 'm', dims: 8 });
      await assert.rejects(embedder.embed(['x']), /8 dimensions/);
    } finally {
      await server.close();
    }
  });

  it('should name a bad option', async () => {
    await assert.rejects(createRemoteEmbedder({ url: 'http://127.0.0.1:9/v1', model: '' }), /`model`/);
    await assert.rejects(createRemoteEmbedder({ url: 'http://127.0.0.1:9/v1', model: 'm', batchSize: 0 }), /`batchSize`/);
  });
});
