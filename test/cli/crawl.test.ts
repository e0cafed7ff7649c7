/**
 * `folio ingest URL --crawl` end to end against a site served by the test on 127.0.0.1, NDJSON
 * output: pages and a linked PDF ingested, a re-sync answered by 304s, a removed page pruned.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSite, type TestSite } from '../support/site.ts';
import { runFolio } from './run-folio.ts';

const html = (title: string, body: string): string => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

describe('folio ingest URL --crawl (a site on 127.0.0.1, NDJSON)', function () {
  this.timeout(60_000);
  let site: TestSite;
  let out = '';
  const ingest = (extra: readonly string[] = []) =>
    runFolio(['ingest', `${site.origin}/`, '--crawl', '--depth', '2', '--out', out, '--engine', 'text', '--embed', 'none', '--workers', '0', ...extra], {
      ELASTICSEARCH_URL: undefined,
    });
  const sources = async (): Promise<string[]> => {
    const lines = (await readFile(join(out, 'chunks.jsonl'), 'utf8')).split('\n').filter((line) => line !== '');
    return [...new Set(lines.map((line) => (JSON.parse(line) as { source: string }).source.slice(site.origin.length)))].sort();
  };

  before(async () => {
    out = await mkdtemp(join(tmpdir(), 'folio-crawl-out-'));
    site = await startSite({
      '/robots.txt': { body: 'User-agent: *\nDisallow: /drafts/\n', type: 'text/plain' },
      '/': {
        body: html(
          'Intranet',
          '<h1>Intranet</h1><p>Welcome to the handbook site.</p><a href="/policies.html">Policies</a> <a href="/drafts/x.html">Draft</a> <a href="/handbook.pdf">Handbook</a>',
        ),
      },
      '/policies.html': { body: html('Policies', '<h1>Policies</h1><p>Travel is booked two weeks ahead.</p><a href="/old.html">Old</a>') },
      '/old.html': { body: html('Old', '<h1>Old</h1><p>An outdated page about fax machines.</p>') },
      '/drafts/x.html': { body: html('Draft', '<p>Not ready.</p>') },
      '/handbook.pdf': { body: new Uint8Array(await readFile('examples/docs/folio-handbook.pdf')) },
    });
  });
  after(async () => {
    await site?.close();
    await rm(out, { recursive: true, force: true });
  });

  it('should ingest the pages and the linked PDF, each chunk naming its URL', async () => {
    const run = await ingest();
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /documents: 4 \(4 done, 0 unchanged, 0 failed\)/, run.stderr);
    assert.deepEqual(await sources(), ['/', '/handbook.pdf', '/old.html', '/policies.html']);
    assert.ok(!site.requests.some((request) => request.path.startsWith('/drafts/')));
  });

  it('should re-sync with conditional requests and prune a page that is gone', async () => {
    site.requests.length = 0;
    const again = await ingest();
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /documents: 4 \(0 done, 4 unchanged, 0 failed\)/, again.stderr);
    assert.equal(site.requests.filter((request) => request.ifNoneMatch !== undefined).length, 4);

    site.pages.delete('/old.html');
    const third = await ingest();
    assert.equal(third.code, 0, third.stderr);
    assert.match(third.stderr, /documents: 3 \(0 done, 3 unchanged, 0 failed, removed 1\)/, third.stderr);
    assert.deepEqual(await sources(), ['/', '/handbook.pdf', '/policies.html']);
  });

  it('should refuse --depth without --crawl', async () => {
    const run = await runFolio(['ingest', `${site.origin}/`, '--depth', '2', '--out', out]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /--depth.*--crawl/);
  });
});
