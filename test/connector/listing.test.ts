import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fileSource, globToRegExp, SourceListing, urlSource } from '../../connector/index.ts';

describe('SourceListing', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-listing-'));
    await mkdir(join(dir, 'a'));
    await writeFile(join(dir, 'a', 'one.md'), '# One\n');
    await writeFile(join(dir, 'a', 'two.md'), '# Two\n');
    await writeFile(join(dir, 'b.md'), '# B\n');
  });
  after(async () => rm(dir, { recursive: true, force: true }));
  const uri = (...parts: string[]): string => pathToFileURL(join(dir, ...parts)).href;

  async function list(inputs: readonly string[]): Promise<SourceListing> {
    const listing = new SourceListing();
    for await (const item of fileSource(inputs, { listing })) void item;
    return listing;
  }

  it('should call gone what a listed folder no longer holds, and nothing outside it', async () => {
    const listing = await list([join(dir, 'a')]);
    assert.equal(listing.complete, true);
    assert.equal(listing.isGone(uri('a', 'one.md')), false);
    assert.equal(listing.isGone(uri('a', 'three.md')), true);
    assert.equal(listing.isGone(uri('a', 'sub', 'deep.md')), true);
    assert.equal(listing.isGone(uri('b.md')), false, 'not under the folder given');
    assert.equal(listing.isGone(uri('ab', 'x.md')), false, 'a sibling folder sharing the prefix');
  });

  it('should limit a glob to what its pattern matches', async () => {
    const listing = await list([join(dir, 'a', '*.md')]);
    assert.equal(listing.isGone(uri('a', 'gone.md')), true);
    assert.equal(listing.isGone(uri('a', 'gone.pdf')), false, 'the pattern never covered it');
    assert.equal(listing.isGone(uri('a', 'two.md')), false);
  });

  it('should call a missing file path gone, and mark a listing that failed incomplete', async () => {
    const listing = await list([join(dir, 'missing.md')]);
    assert.equal(listing.isGone(uri('missing.md')), true);
    const failed = new SourceListing();
    failed.failed('x: permission denied');
    assert.equal(failed.complete, false);
  });

  it('should call gone a URL that answers 404 or 410, not one that answers 503', async () => {
    const server = createServer((req, res) => res.writeHead(req.url === '/gone.pdf' ? 410 : req.url === '/busy.pdf' ? 503 : 404).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const listing = new SourceListing();
      for await (const item of urlSource([`${base}/gone.pdf`, `${base}/missing.pdf`, `${base}/busy.pdf`], { listing, retries: 0 })) void item;
      assert.equal(listing.isGone(`${base}/gone.pdf`), true);
      assert.equal(listing.isGone(`${base}/missing.pdf`), true);
      assert.equal(listing.isGone(`${base}/busy.pdf`), false);
    } finally {
      server.close();
    }
  });

  it('should read glob syntax like fs.glob', () => {
    assert.ok(globToRegExp('/d/**/*.pdf').test('/d/x.pdf'));
    assert.ok(globToRegExp('/d/**/*.pdf').test('/d/e/f/x.pdf'));
    assert.ok(!globToRegExp('/d/*.pdf').test('/d/e/x.pdf'));
    assert.ok(globToRegExp('/d/{a,b}?.md').test('/d/b1.md'));
    assert.ok(!globToRegExp('/d/[!x]*.md').test('/d/xy.md'));
  });
});
