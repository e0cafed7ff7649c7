/**
 * `folio ingest s3://…` and `folio convert s3://…` against a real S3-compatible server (s3proxy),
 * NDJSON output: a re-sync reads exactly what changed, carries the rest, prunes what was deleted;
 * wrong credentials exit 2; a server stopped mid-run exits 3. A pass-through proxy in front of
 * the server only records which objects were downloaded (and holds one request while the server
 * is stopped).
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, DeleteObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.ts';
import { type S3Server, startS3Server } from '../support/s3proxy.ts';
import { runFolio } from './run-folio.ts';

const HANDBOOK = 'examples/docs/folio-handbook.pdf';

interface ChunkLine {
  readonly docId: string;
  readonly source: string;
  readonly text: string;
}

async function chunksIn(out: string): Promise<ChunkLine[]> {
  const text = await readFile(join(out, 'chunks.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as ChunkLine);
}

const bySource = (chunks: readonly ChunkLine[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const chunk of chunks) counts[chunk.source] = (counts[chunk.source] ?? 0) + 1;
  return counts;
};

describe('folio ingest s3://bucket/prefix (real s3proxy, NDJSON)', function () {
  this.timeout(60_000);
  let server: S3Server;
  let client: S3Client;
  let proxy: FaultProxy;
  let out = '';
  const put = async (key: string, body: string | Uint8Array) => client.send(new PutObjectCommand({ Bucket: 'corpus', Key: key, Body: body }));
  const ingest = (extra: readonly string[] = [], env: Record<string, string> = {}) =>
    runFolio(['ingest', 's3://corpus/', '--s3-endpoint', proxy.url, '--out', out, '--engine', 'text', '--embed', 'none', '--workers', '0', ...extra], {
      ...server.env,
      ELASTICSEARCH_URL: undefined,
      ...env,
    } as Record<string, string | undefined>);
  const downloads = (): string[] =>
    proxy.log
      .filter((line) => line.startsWith('GET /corpus/') && !line.includes('list-type'))
      .map((line) => line.split(' ')[1]!.split('?')[0]!)
      .sort();

  before(async () => {
    server = await startS3Server();
    client = server.client();
    proxy = await startFaultProxy(server.endpoint, () => 'forward', { keepHost: true });
    out = await mkdtemp(join(tmpdir(), 'folio-s3-out-'));
    await client.send(new CreateBucketCommand({ Bucket: 'corpus' }));
    await put('notes/alpha.md', '# Alpha\n\nThe first version of alpha.\n');
    await put('notes/beta.md', '# Beta\n\nBeta is about to be deleted.\n');
    await put('manuals/handbook.pdf', await readFile(HANDBOOK));
  });
  after(async () => {
    client?.destroy();
    await proxy?.close();
    await server?.remove();
    await rm(out, { recursive: true, force: true });
  });

  it('should ingest every object, each chunk naming its bucket and key', async () => {
    const run = await ingest();
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /documents: 3 \(3 done, 0 unchanged, 0 failed\)/, run.stderr);
    const counts = bySource(await chunksIn(out));
    assert.deepEqual(Object.keys(counts).sort(), ['s3://corpus/manuals/handbook.pdf', 's3://corpus/notes/alpha.md', 's3://corpus/notes/beta.md']);
    assert.deepEqual(downloads(), ['/corpus/manuals/handbook.pdf', '/corpus/notes/alpha.md', '/corpus/notes/beta.md']);
  });

  it('should re-read exactly the changed object, prune the deleted one and carry the rest', async () => {
    const before = bySource(await chunksIn(out));
    await put('notes/alpha.md', '# Alpha\n\nThe second version of alpha, rewritten.\n');
    await client.send(new DeleteObjectCommand({ Bucket: 'corpus', Key: 'notes/beta.md' }));
    proxy.log.length = 0;
    const run = await ingest();
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /documents: 2 \(1 done, 1 unchanged, 0 failed, removed 1\)/, run.stderr);
    assert.deepEqual(downloads(), ['/corpus/notes/alpha.md'], 'only the changed object is downloaded');
    const chunks = await chunksIn(out);
    const counts = bySource(chunks);
    assert.equal(counts['s3://corpus/notes/beta.md'], undefined, 'the deleted object is pruned');
    assert.equal(counts['s3://corpus/manuals/handbook.pdf'], before['s3://corpus/manuals/handbook.pdf'], 'the unchanged PDF keeps its chunks');
    const alpha = chunks.filter((chunk) => chunk.source === 's3://corpus/notes/alpha.md').map((chunk) => chunk.text);
    assert.match(alpha.join('\n'), /second version/);
    assert.doesNotMatch(alpha.join('\n'), /first version/);
    const bulk = await readFile(join(out, 'bulk.ndjson'), 'utf8');
    assert.equal(bulk.split('\n').filter((line) => line !== '').length, chunks.length * 2, 'bulk.ndjson holds the same chunks');
  });

  it('should download nothing from an unchanged bucket', async () => {
    proxy.log.length = 0;
    const run = await ingest();
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /documents: 2 \(0 done, 2 unchanged, 0 failed\)/, run.stderr);
    assert.deepEqual(downloads(), []);
  });

  it('should download an object uploaded again with the same bytes once, then never again', async () => {
    await put('manuals/handbook.pdf', await readFile(HANDBOOK));
    proxy.log.length = 0;
    const run = await ingest();
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /documents: 2 \(0 done, 2 unchanged, 0 failed\)/, run.stderr);
    assert.deepEqual(downloads(), ['/corpus/manuals/handbook.pdf'], 'a new date: downloaded, found unchanged by its content');
    proxy.log.length = 0;
    const again = await ingest();
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(downloads(), [], 'its new version was recorded');
  });

  it('should convert objects to Markdown under paths relative to the prefix', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'folio-s3-convert-'));
    try {
      const run = await runFolio(
        ['convert', 's3://corpus/manuals/', '--s3-endpoint', server.endpoint, '--out-dir', dir, '--engine', 'text', '--workers', '0'],
        server.env,
      );
      assert.equal(run.code, 0, run.stderr);
      assert.match(await readFile(join(dir, 'handbook.md'), 'utf8'), /\w+/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('should take credentials and region from a shared profile, as the AWS SDK does', async () => {
    const home = await mkdtemp(join(tmpdir(), 'folio-s3-profile-'));
    try {
      await writeFile(join(home, 'credentials'), `[reader]\naws_access_key_id = ${server.accessKeyId}\naws_secret_access_key = ${server.secretAccessKey}\n`);
      await writeFile(join(home, 'config'), '[profile reader]\nregion = eu-west-1\n');
      const env = {
        AWS_ACCESS_KEY_ID: undefined,
        AWS_SECRET_ACCESS_KEY: undefined,
        AWS_REGION: undefined,
        AWS_PROFILE: 'reader',
        AWS_SHARED_CREDENTIALS_FILE: join(home, 'credentials'),
        AWS_CONFIG_FILE: join(home, 'config'),
        ELASTICSEARCH_URL: undefined,
      };
      const run = await runFolio(
        ['convert', 's3://corpus/manuals/', '--s3-endpoint', server.endpoint, '--out-dir', join(home, 'out'), '--engine', 'text', '--workers', '0'],
        env,
      );
      assert.equal(run.code, 0, run.stderr);
      const wrong = await runFolio(['convert', 's3://corpus/manuals/', '--s3-endpoint', server.endpoint, '--out-dir', join(home, 'out'), '--workers', '0'], {
        ...env,
        AWS_PROFILE: 'nobody',
      });
      assert.equal(wrong.code, 2, wrong.stderr);
      assert.match(wrong.stderr, /no AWS region|no S3 credentials found/, wrong.stderr);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it('should exit 2 with a clear message for wrong credentials', async () => {
    const run = await ingest([], { AWS_SECRET_ACCESS_KEY: 'not-the-secret' });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /refused the credentials \(SignatureDoesNotMatch/, run.stderr);
    assert.match(run.stderr, /AWS_ACCESS_KEY_ID/);
  });

  it('should exit 2 when the endpoint does not answer at the start', async () => {
    const run = await runFolio(['ingest', 's3://corpus/', '--s3-endpoint', 'http://127.0.0.1:9', '--out', out, '--embed', 'none'], server.env);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /does not answer/, run.stderr);
  });

  it('should exit 3 when the server stops mid-run, and keep what the output held', async () => {
    const held = await chunksIn(out);
    await put('notes/gamma.md', '# Gamma\n\nNew after the first runs.\n');
    await put('notes/delta.md', '# Delta\n\nAlso new.\n');
    // The listing goes through; the first download waits until the server is stopped.
    proxy.decide = ({ path }) => (path.includes('list-type') ? 'forward' : { hold: server.stop() });
    const run = await ingest(['--no-prune']);
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stderr, /S3 endpoint stopped answering \(after \d attempts\).*nothing was pruned/, run.stderr);
    assert.deepEqual(bySource(await chunksIn(out)), bySource(held), 'the earlier documents are all still in the output');
  });
});
