/**
 * `s3Source` against a real S3-compatible server (s3proxy, filesystem backend): listing across
 * pages, prefixes and globs, version checks before downloads, the size bound, and the faults
 * that stop a run (wrong credentials, a server gone mid-run).
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { isSourceFailure, parseS3Address, type S3SourceOptions, type SourceItem, SourceListing, s3Source, s3Uri, s3Version } from '../../connector/index.ts';
import { ConfigurationError, SourceError } from '../../core/errors.ts';
import { stableId } from '../../core/hash.ts';
import type { SourceDocument } from '../../core/types.ts';
import { type S3Server, startS3Server } from '../support/s3proxy.ts';

async function collect(inputs: readonly string[], options: S3SourceOptions): Promise<SourceItem[]> {
  const items: SourceItem[] = [];
  for await (const item of s3Source(inputs, options)) items.push(item);
  return items;
}

const uris = (items: readonly SourceItem[]): string[] => items.map((item) => (isSourceFailure(item) ? `failed:${item.source}` : item.uri)).sort();

describe('parseS3Address', () => {
  it('should split bucket, prefix and glob', () => {
    const glob = parseS3Address('s3://docs/2024/**/*.pdf');
    assert.equal(glob?.bucket, 'docs');
    assert.equal(glob?.prefix, '2024/');
    assert.equal(glob?.pattern?.test('2024/q1/report.pdf'), true);
    assert.equal(glob?.pattern?.test('2024/q1/report.md'), false);
    assert.deepEqual({ ...parseS3Address('s3://docs'), pattern: undefined }, { bucket: 'docs', prefix: '', pattern: undefined, base: '', scope: 's3://docs/' });
    assert.equal(parseS3Address('s3://docs/notes/a')?.base, 'notes/');
    assert.equal(parseS3Address('s3:///nobucket'), undefined);
  });
});

describe('s3Source (real s3proxy)', function () {
  this.timeout(60_000);
  let server: S3Server;
  let client: S3Client;
  let options: S3SourceOptions;
  /** What a sink would have recorded: the versions of the objects under `prefix`, listed by the SDK itself. */
  const versions = async (bucket: string, prefix: string): Promise<Map<string, string>> => {
    const out = new Map<string, string>();
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
      for (const entry of page.Contents ?? []) out.set(stableId(s3Uri(bucket, entry.Key!)), s3Version(entry.ETag ?? '', entry.Size ?? 0, entry.LastModified));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return out;
  };
  const put = (key: string, body: string | Uint8Array, bucket = 'docs') => client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));

  before(async () => {
    server = await startS3Server();
    client = server.client();
    Object.assign(process.env, server.env);
    options = { endpoint: server.endpoint, retries: 1, retryDelayMs: 50 };
    await client.send(new CreateBucketCommand({ Bucket: 'docs' }));
    await put('notes/a.md', '# A\n\nThe first note.\n');
    await put('notes/b.md', '# B\n\nThe second note.\n');
    await put('notes/deep/c.md', '# C\n\nA deeper note.\n');
    await put('notes/folder-marker/', new Uint8Array(0));
    await put('other/d.md', '# D\n\nElsewhere.\n');
    await put('notes/blob.bin', new Uint8Array([0, 1, 2, 3, 4, 5]));
  });
  after(async () => {
    client?.destroy();
    await server?.remove();
  });

  it('should read the objects under a prefix, with s3:// URIs and paths relative to it', async () => {
    const items = await collect(['s3://docs/notes/'], options);
    assert.deepEqual(uris(items), ['failed:s3://docs/notes/blob.bin', 's3://docs/notes/a.md', 's3://docs/notes/b.md', 's3://docs/notes/deep/c.md']);
    const c = items.find((item) => !isSourceFailure(item) && item.uri.endsWith('c.md')) as SourceDocument;
    assert.equal(c.relativePath, 'deep/c.md');
    assert.equal(c.mime, 'text/markdown');
    assert.match(new TextDecoder().decode(c.bytes), /A deeper note/);
    assert.match(c.version ?? '', /^etag=.+;size=\d+;modified=\d{4}-/);
    const blob = items.find(isSourceFailure);
    assert.equal(blob?.code, 'FOLIO_UNSUPPORTED_TYPE');
  });

  it('should filter keys by a glob', async () => {
    assert.deepEqual(uris(await collect(['s3://docs/**/c.md', 's3://docs/other/*.md'], options)), ['s3://docs/notes/deep/c.md', 's3://docs/other/d.md']);
  });

  it('should download nothing the sink holds at the same version, and know what is gone', async () => {
    const recorded = await versions('docs', 'notes/');
    const listing = new SourceListing();
    const items = await collect(['s3://docs/notes/*.md'], { ...options, listing, knownVersion: async (id) => recorded.get(id) });
    assert.deepEqual(items, []);
    assert.equal(listing.unchangedCount, 2);
    assert.equal(listing.complete, true);
    assert.equal(listing.isGone('s3://docs/notes/a.md'), false);
    assert.equal(listing.isGone('s3://docs/notes/removed.md'), true);
    // Outside the glob: not covered by this listing, so never pruned by it.
    assert.equal(listing.isGone('s3://docs/notes/deep/gone.md'), false);
    assert.equal(listing.isGone('s3://docs/other/gone.md'), false);
    // Another version: read again.
    const changed = await collect(['s3://docs/notes/a.md'], { ...options, knownVersion: async () => 'etag="other";size=1;modified=' });
    assert.deepEqual(uris(changed), ['s3://docs/notes/a.md']);
  });

  it('should refuse an object over maxBytes without downloading it', async () => {
    const items = await collect(['s3://docs/notes/a.md'], { ...options, maxBytes: 5 });
    assert.equal(items.length, 1);
    assert.ok(isSourceFailure(items[0]!));
    assert.equal(items[0]!.code, 'FOLIO_TOO_LARGE');
  });

  it('should list 1,000 keys across pages without reading them', async () => {
    // Seeded through the filesystem backend: the listing is under test, not 1,000 uploads.
    const folder = join(server.dataDir, 'many', 'keys');
    await mkdir(folder, { recursive: true });
    await Promise.all(Array.from({ length: 1000 }, (_, i) => writeFile(join(folder, `k${String(i).padStart(4, '0')}.md`), `# ${i}\n`)));
    const recorded = await versions('many', 'keys/');
    assert.equal(recorded.size, 1000);
    const listing = new SourceListing();
    const ids = new Set<string>();
    const items = await collect(['s3://many/keys/'], {
      ...options,
      pageSize: 100,
      listing,
      knownVersion: async (id) => {
        ids.add(id);
        return recorded.get(id);
      },
    });
    const first = items[0] as SourceDocument | undefined;
    assert.equal(items.length, 0, `read ${first?.uri} at ${first?.version}, recorded ${first ? recorded.get(first.id) : ''}`);
    assert.equal(ids.size, 1000);
    assert.equal(listing.unchangedCount, 1000);
    assert.equal(listing.isGone('s3://many/keys/k0999.md'), false);
    assert.equal(listing.isGone('s3://many/keys/k1000.md'), true);
  });

  it('should fail a missing bucket alone, and prune nothing', async () => {
    const listing = new SourceListing();
    const items = await collect(['s3://no-such-bucket/x/', 's3://docs/other/'], { ...options, listing });
    assert.deepEqual(uris(items), ['failed:s3://no-such-bucket/x/', 's3://docs/other/d.md']);
    assert.match(isSourceFailure(items[0]!) ? items[0].reason : '', /NoSuchBucket.*nothing under it is pruned/);
    assert.equal(listing.complete, false);
  });

  it('should reject wrong credentials as a configuration error', async () => {
    const saved = process.env['AWS_SECRET_ACCESS_KEY'];
    process.env['AWS_SECRET_ACCESS_KEY'] = 'wrong';
    try {
      await assert.rejects(collect(['s3://docs/'], options), (error: unknown) => {
        assert.ok(error instanceof ConfigurationError);
        assert.equal(error.code, 'FOLIO_S3_CREDENTIALS');
        assert.match(error.message, /refused the credentials .*AWS_ACCESS_KEY_ID/);
        return true;
      });
    } finally {
      process.env['AWS_SECRET_ACCESS_KEY'] = saved;
    }
  });

  it('should feed FolioLoader, each Document naming its bucket and key', async () => {
    const { FolioLoader } = await import('../../retrieval/langchain/index.ts');
    const docs = await new FolioLoader({ inputs: 's3://docs/notes/*.md', s3: { endpoint: server.endpoint } }).load();
    assert.deepEqual([...new Set(docs.map((doc) => doc.metadata.source))].sort(), ['s3://docs/notes/a.md', 's3://docs/notes/b.md']);
    assert.match(docs.map((doc) => doc.pageContent).join('\n'), /The first note/);
  });

  it('should stop with FOLIO_SOURCE_LOST when the server goes away mid-listing', async () => {
    // One download at a time, so the second is asked for after the server is gone.
    const iterator = s3Source(['s3://docs/notes/'], { ...options, concurrency: 1 })[Symbol.asyncIterator]();
    const first = await iterator.next();
    assert.equal(first.done, false);
    await server.stop();
    await assert.rejects(
      (async () => {
        while (!(await iterator.next()).done);
      })(),
      (error: unknown) => error instanceof SourceError && error.code === 'FOLIO_SOURCE_LOST' && /stopped answering/.test(error.message),
    );
  });
});
