import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SourceItem } from '../../connector/index.ts';
import { commonRoot, fileSource, isSourceFailure, sniffMime, sourcesFrom } from '../../connector/index.ts';
import type { SourceDocument } from '../../core/types.ts';

const PDF = '../shared/data/docling-dev/pdf/2305.03393v1-pg9.pdf';

async function collect(source: AsyncIterable<SourceItem>): Promise<SourceItem[]> {
  const items: SourceItem[] = [];
  for await (const item of source) items.push(item);
  return items;
}

describe('fileSource', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-files-'));
    await mkdir(join(dir, 'a', 'b'), { recursive: true });
    await writeFile(join(dir, 'a', 'paper.pdf'), await readFile(PDF));
    await writeFile(join(dir, 'a', 'b', 'notes.md'), '# Notes\n\nhello\n');
    // Binary junk named .pdf (an HTML error page named .pdf is now read as HTML, by its bytes).
    await writeFile(join(dir, 'a', 'b', 'fake.pdf'), Buffer.from([0x00, 0x01, 0x02, 0x03, 0xfe, 0xff]));
    await writeFile(join(dir, 'a', 'empty.pdf'), '');
    await writeFile(join(dir, 'a', '.hidden.md'), 'secret');
    await writeFile(join(dir, 'a', 'b', 'pic.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it('walks a folder recursively, sniffs types and names documents relative to the root', async () => {
    const items = await collect(fileSource([join(dir, 'a')]));
    const docs = items.filter((i): i is SourceDocument => !isSourceFailure(i));
    const failures = items.filter(isSourceFailure);
    assert.deepEqual(
      docs.map((d) => [d.relativePath, d.mime]),
      [
        ['b/notes.md', 'text/markdown'],
        ['b/pic.png', 'image/png'],
        ['paper.pdf', 'application/pdf'],
      ],
    );
    assert.deepEqual(failures.map((f) => f.code).sort(), ['FOLIO_EMPTY_FILE', 'FOLIO_UNSUPPORTED_TYPE']);
    assert.match(failures.find((f) => f.code === 'FOLIO_UNSUPPORTED_TYPE')?.reason ?? '', /fake\.pdf.*octet-stream/);
    const paper = docs.find((d) => d.relativePath === 'paper.pdf');
    assert.ok(paper);
    assert.equal(paper.uri, pathToFileURL(join(dir, 'a', 'paper.pdf')).href);
    assert.match(paper.contentHash, /^[0-9a-f]{64}$/);
    assert.ok(paper.modifiedAt instanceof Date);
  });

  it('gives the same ids on every run', async () => {
    const first = await collect(fileSource([join(dir, 'a')]));
    const second = await collect(fileSource([join(dir, 'a')]));
    const ids = (items: SourceItem[]) => items.filter((i): i is SourceDocument => !isSourceFailure(i)).map((d) => d.id);
    assert.deepEqual(ids(first), ids(second));
    assert.equal(new Set(ids(first)).size, 3);
  });

  it('reports a missing path as a failure record and carries on', async () => {
    const items = await collect(fileSource([join(dir, 'nope.pdf'), join(dir, 'a', 'b', 'notes.md')]));
    assert.equal(items.length, 2);
    const [missing, notes] = items;
    assert.ok(missing && isSourceFailure(missing));
    assert.equal(missing.code, 'FOLIO_NOT_FOUND');
    assert.match(missing.reason, /nope\.pdf/);
    assert.ok(notes && !isSourceFailure(notes));
    assert.equal(notes.relativePath, 'notes.md');
  });

  it('expands globs', async () => {
    const items = await collect(fileSource([join(dir, 'a', '**', '*.md')]));
    assert.deepEqual(
      items.map((i) => (isSourceFailure(i) ? i.code : i.relativePath)),
      ['b/notes.md'],
    );
    const none = await collect(fileSource([join(dir, '*.docx')]));
    assert.equal(none[0] && isSourceFailure(none[0]) ? none[0].code : undefined, 'FOLIO_NOT_FOUND');
  });

  it('rejects a bad option naming it', async () => {
    await assert.rejects(collect(fileSource([dir], { maxBytes: 0 })), /`maxBytes`.*`0`/);
  });

  it('turns files over maxBytes into failures', async () => {
    const items = await collect(fileSource([join(dir, 'a', 'paper.pdf')], { maxBytes: 10 }));
    assert.equal(items[0] && isSourceFailure(items[0]) ? items[0].code : undefined, 'FOLIO_TOO_LARGE');
  });
});

describe('sourcesFrom', () => {
  it('splits paths from URLs', async () => {
    // A port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const items = await collect(sourcesFrom([`http://127.0.0.1:${port}/x.pdf`, PDF], { retries: 0, timeoutMs: 2000 }));
    assert.equal(items.length, 2);
    assert.equal(items[0] && !isSourceFailure(items[0]) ? items[0].mime : undefined, 'application/pdf');
    assert.equal(items[1] && isSourceFailure(items[1]) ? items[1].code : undefined, 'FOLIO_UNREACHABLE');
  });
});

describe('sniffMime', () => {
  it('sniffs by content, not by name', () => {
    const enc = new TextEncoder();
    assert.equal(sniffMime(enc.encode('junk\n%PDF-1.7\n'), 'x.bin'), 'application/pdf');
    assert.equal(sniffMime(enc.encode('hello'), 'x.pdf'), 'application/octet-stream');
    assert.equal(sniffMime(enc.encode('# hi'), 'x.md'), 'text/markdown');
    assert.equal(sniffMime(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), 'x.png'), 'image/jpeg');
    assert.equal(sniffMime(new Uint8Array([0x49, 0x49, 0x2a, 0x00, 1]), ''), 'image/tiff');
    assert.equal(sniffMime(new Uint8Array([0x4d, 0x4d, 0x00, 0x2a, 1]), ''), 'image/tiff');
    assert.equal(sniffMime(enc.encode('RIFF\0\0\0\0WEBPVP8 '), ''), 'image/webp');
    assert.equal(sniffMime(new Uint8Array([0, 1, 2]), 'x.md'), 'application/octet-stream');
  });
});

describe('commonRoot', () => {
  it('finds the deepest shared folder', () => {
    assert.equal(commonRoot(['/a/b/c', '/a/b/d/e']), '/a/b');
    assert.equal(commonRoot(['/x', '/y']), '/');
  });
});

describe('fileSource streaming', () => {
  it('reads a file only when the consumer asks for it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'folio-lazy-'));
    try {
      await writeFile(join(dir, 'a.md'), '# A\n');
      await writeFile(join(dir, 'b.md'), '# B\n');
      const source = fileSource([dir]);
      const first = await source.next();
      assert.equal(first.value && !isSourceFailure(first.value) ? first.value.relativePath : undefined, 'a.md');
      // Changed after the first document was yielded: the stream must read the new bytes.
      await writeFile(join(dir, 'b.md'), '# B changed\n');
      const second = await source.next();
      assert.equal(second.value && !isSourceFailure(second.value) ? new TextDecoder().decode(second.value.bytes) : undefined, '# B changed\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
