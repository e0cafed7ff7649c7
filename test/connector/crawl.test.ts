/**
 * `crawlSource` against a site served by the test on 127.0.0.1: robots.txt, sitemap or links,
 * depth, canonical URLs, redirect loops and off-site redirects, 404s, linked PDFs, off-site
 * links, conditional requests on a re-crawl, and what a sync may prune.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { crawlFetch, HostPacer, siteIsPrivate } from '../../connector/crawl-fetch.ts';
import { sameSite, siteOrigins } from '../../connector/crawl-url.ts';
import { crawlSource, isSourceFailure, parseRobots, parseSitemap, type SourceItem, SourceListing } from '../../connector/index.ts';
import type { SourceDocument } from '../../core/types.ts';
import { startSite, type TestSite } from '../support/site.ts';

const html = (title: string, body: string, head = ''): string => `<!doctype html><html><head><title>${title}</title>${head}</head><body>${body}</body></html>`;

async function crawl(start: string, options: Parameters<typeof crawlSource>[1] = {}): Promise<SourceItem[]> {
  const items: SourceItem[] = [];
  for await (const item of crawlSource([start], { delayMs: 0, retries: 0, ...options })) items.push(item);
  return items;
}

const documents = (items: readonly SourceItem[]): SourceDocument[] => items.filter((item): item is SourceDocument => !isSourceFailure(item));

describe('parseRobots', () => {
  it('should pick our group, else *, with the longest match winning', () => {
    const robots = parseRobots(
      'User-agent: other\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\nAllow: /private/open$\nDisallow: /*.cgi\nCrawl-delay: 2\nSitemap: https://a.org/s.xml',
      'folio',
    );
    assert.equal(robots.allowed('/'), true);
    assert.equal(robots.allowed('/private/x.html'), false);
    assert.equal(robots.allowed('/private/open'), true);
    assert.equal(robots.allowed('/private/open/more'), false);
    assert.equal(robots.allowed('/bin/run.cgi'), false);
    assert.equal(robots.crawlDelayMs, 2000);
    assert.deepEqual(robots.sitemaps, ['https://a.org/s.xml']);
    assert.equal(parseRobots('User-agent: folio\nDisallow: /\n', 'folio').allowed('/a'), false);
  });
});

describe('sameSite', () => {
  it('should take one host on its default ports as one site, whatever the scheme', () => {
    assert.equal(sameSite('http://a.org/x', 'https://a.org/y'), true);
    assert.equal(sameSite('http://a.org:8080/x', 'http://a.org:8080/y'), true);
    assert.equal(sameSite('http://a.org:8080/x', 'http://a.org/y'), false);
    assert.equal(sameSite('https://a.org/', 'https://b.a.org/'), false);
    assert.deepEqual(siteOrigins('https://a.org/docs/'), ['http://a.org/', 'https://a.org/']);
    assert.deepEqual(siteOrigins('http://127.0.0.1:8080/'), ['http://127.0.0.1:8080/']);
  });
});

describe('parseSitemap', () => {
  it('should read page and index sitemaps, entities decoded, nothing else resolved', () => {
    assert.deepEqual(parseSitemap('<?xml version="1.0"?><urlset><url><loc> https://a.org/x?a=1&amp;b=2 </loc></url></urlset>').urls, [
      'https://a.org/x?a=1&b=2',
    ]);
    assert.deepEqual(parseSitemap('<sitemapindex><sitemap><loc>https://a.org/s1.xml</loc></sitemap></sitemapindex>'), {
      urls: [],
      sitemaps: ['https://a.org/s1.xml'],
    });
    const xxe = '<?xml version="1.0"?><!DOCTYPE u [<!ENTITY x SYSTEM "file:///etc/passwd">]><urlset><url><loc>&x;</loc></url></urlset>';
    assert.deepEqual(parseSitemap(xxe).urls, ['&x;']);
  });
});

describe('crawlSource (a site on 127.0.0.1)', function () {
  this.timeout(30_000);
  let site: TestSite;
  let other: TestSite;
  let pdf: Uint8Array;
  const paths = (items: readonly SourceItem[]): string[] => documents(items).map((doc) => doc.uri.slice(site.origin.length));
  const requested = (): string[] => site.requests.map((request) => request.path);

  before(async () => {
    pdf = new Uint8Array(await readFile('examples/docs/folio-handbook.pdf'));
    other = await startSite({ '/offsite.html': { body: html('Off', '<p>Elsewhere</p>') } });
    site = await startSite({
      '/robots.txt': { body: 'User-agent: *\nDisallow: /private/\n', type: 'text/plain' },
      '/': {
        body: html(
          'Home',
          `<nav><a href="/guide.html">Guide</a></nav><h1>Welcome</h1><p>The home page.</p>
           <a href="/guide.html#install">Install</a> <a href="/guide-copy.html">Copy</a>
           <a href="/private/secret.html">Secret</a> <a href="/loop-a">Loop</a> <a href="/missing.html">Missing</a>
           <a href="/files/report.pdf">Report</a> <a href="/style.css">CSS</a> <a href="/away">Away</a>
           <a href="${other.origin}/offsite.html">Off-site</a> <a href="/deep/1.html">Deep</a>`,
        ),
      },
      '/guide.html': {
        body: html(
          'Guide',
          '<h1>Guide</h1><h2 id="install">Install</h2><p>Run the installer.</p><a href="/">Home</a>',
          '<link rel="canonical" href="/guide.html">',
        ),
      },
      '/guide-copy.html': { body: html('Guide', '<h1>Guide</h1><p>The same guide, another URL.</p>', '<link rel="canonical" href="/guide.html">') },
      '/private/secret.html': { body: html('Secret', '<p>Never to be crawled.</p>') },
      '/loop-a': { redirect: '/loop-b' },
      '/loop-b': { redirect: '/loop-a' },
      '/away': { redirect: `${other.origin}/offsite.html` },
      '/files/report.pdf': { body: pdf },
      '/style.css': { body: 'body {}', type: 'text/css' },
      '/deep/1.html': { body: html('One', '<p>Level one.</p><a href="/deep/2.html">2</a>') },
      '/deep/2.html': { body: html('Two', '<p>Level two.</p><a href="/deep/3.html">3</a>') },
      '/deep/3.html': { body: html('Three', '<p>Level three.</p>') },
    });
  });
  after(async () => {
    await site?.close();
    await other?.close();
  });
  beforeEach(() => {
    site.requests.length = 0;
    other.requests.length = 0;
  });

  it('should crawl same-site links to the depth asked, obeying robots.txt', async () => {
    const listing = new SourceListing();
    const items = await crawl(`${site.origin}/`, { depth: 2, listing });
    assert.deepEqual(paths(items).sort(), ['/', '/deep/1.html', '/deep/2.html', '/files/report.pdf', '/guide.html']);
    assert.equal(requested()[0], '/robots.txt', 'robots.txt is read first');
    for (const never of ['/private/secret.html', '/style.css', '/deep/3.html']) assert.ok(!requested().includes(never), `${never} is not requested`);
    assert.equal(other.requests.length, 0, 'nothing off-site is requested, by link or by redirect');
    assert.equal(requested().filter((path) => path === '/guide.html').length, 1, 'a page linked twice is fetched once');
    assert.ok(requested().every((path) => !path.includes('#')));
    assert.ok(site.requests.every((request) => request.userAgent === 'folio'));

    const failures = items.filter(isSourceFailure).map((failure) => `${failure.source.slice(site.origin.length)} ${failure.code}`);
    assert.deepEqual(failures.sort(), ['/away FOLIO_BAD_URL', '/loop-a FOLIO_TOO_MANY_REDIRECTS']);
    assert.match(items.filter(isSourceFailure).find((f) => f.source.endsWith('/away'))!.reason, /redirected off the site/);

    const home = documents(items).find((doc) => doc.uri === `${site.origin}/`)!;
    assert.equal(home.mime, 'text/markdown');
    assert.equal(home.relativePath, 'index.md');
    assert.match(new TextDecoder().decode(home.bytes), /^# Welcome\n\nThe home page\./);
    const report = documents(items).find((doc) => doc.uri.endsWith('.pdf'))!;
    assert.equal(report.mime, 'application/pdf');
    assert.equal(report.relativePath, 'files/report.pdf');

    assert.equal(listing.complete, true);
    assert.equal(listing.isGone(`${site.origin}/missing.html`), true, 'a 404 is gone');
    assert.equal(listing.isGone(`${site.origin}/guide.html`), false);
    assert.equal(listing.isGone(`${site.origin}/loop-a`), false, 'a failing page is never pruned');
    assert.equal(listing.isGone(`${site.origin}/old-page.html`), true, 'a page the complete crawl did not reach is gone');
    assert.equal(listing.isGone(`${other.origin}/offsite.html`), false);
  });

  it('should record a page under its canonical URL once', async () => {
    const items = await crawl(`${site.origin}/guide-copy.html`, { depth: 0 });
    assert.deepEqual(paths(items), ['/guide.html']);
  });

  it('should re-crawl with conditional requests: 304s are unchanged and still lead on', async () => {
    const first = await crawl(`${site.origin}/`, { depth: 2 });
    const versions = new Map(documents(first).map((doc) => [doc.id, doc.version]));
    site.requests.length = 0;
    const listing = new SourceListing();
    const again = await crawl(`${site.origin}/`, { depth: 2, listing, knownVersion: async (id) => versions.get(id) });
    assert.deepEqual(paths(again), [], 'nothing changed, nothing read');
    assert.equal(listing.unchangedCount, 5);
    const conditional = site.requests.filter((request) => request.ifNoneMatch !== undefined).map((request) => request.path);
    assert.deepEqual(conditional.sort(), ['/', '/deep/1.html', '/deep/2.html', '/files/report.pdf', '/guide.html']);
    // A page that now answers 404 is gone; a changed one is read again.
    const saved = site.pages.get('/deep/2.html')!;
    site.pages.delete('/deep/2.html');
    site.pages.set('/guide.html', { body: html('Guide', '<h1>Guide</h1><p>Rewritten.</p>') });
    try {
      const listing3 = new SourceListing();
      const third = await crawl(`${site.origin}/`, { depth: 2, listing: listing3, knownVersion: async (id) => versions.get(id) });
      assert.deepEqual(paths(third), ['/guide.html']);
      assert.equal(listing3.isGone(`${site.origin}/deep/2.html`), true);
    } finally {
      site.pages.set('/deep/2.html', saved);
    }
  });

  it('should prune nothing but 404s when cut short by maxPages', async () => {
    const listing = new SourceListing();
    const items = await crawl(`${site.origin}/`, { depth: 3, maxPages: 2, listing });
    assert.equal(documents(items).length, 2);
    assert.equal(listing.isGone(`${site.origin}/old-page.html`), false);
  });

  it('should take the pages from the sitemap when there is one, and the files they link', async () => {
    const mapped = await startSite({
      '/': { body: html('Home', '<p>Start.</p><a href="/unlisted.html">Unlisted</a>') },
      '/sitemap.xml': { body: '<?xml version="1.0"?><urlset><url><loc>PLACEHOLDER/a.html</loc></url><url><loc>PLACEHOLDER/b.html</loc></url></urlset>' },
      '/a.html': { body: html('A', '<p>Page a.</p><a href="/doc.pdf">PDF</a> <a href="/unlisted.html">Unlisted</a>') },
      '/b.html': { body: html('B', '<p>Page b.</p>') },
      '/unlisted.html': { body: html('U', '<p>Not in the sitemap.</p>') },
      '/doc.pdf': { body: pdf },
    });
    try {
      const entry = mapped.pages.get('/sitemap.xml') as { body: string };
      mapped.pages.set('/sitemap.xml', { body: entry.body.replaceAll('PLACEHOLDER', mapped.origin), type: 'application/xml' });
      const items = await crawl(`${mapped.origin}/`, { depth: 3 });
      assert.deepEqual(
        documents(items)
          .map((doc) => doc.uri.slice(mapped.origin.length))
          .sort(),
        ['/', '/a.html', '/b.html', '/doc.pdf'],
      );
      assert.ok(!mapped.requests.some((request) => request.path === '/unlisted.html'));
    } finally {
      await mapped.close();
    }
  });

  it('should refuse loopback and private addresses when the site is not on one (by address or by name)', async () => {
    const settings = {
      timeoutMs: 5000,
      maxBytes: 1 << 20,
      maxRedirects: 2,
      retries: 0,
      retryDelayMs: 0,
      userAgent: 'folio',
      allowPrivate: false,
      signal: undefined,
    };
    const port = new URL(site.origin).port;
    for (const origin of [site.origin, `http://localhost:${port}`]) {
      const answer = await crawlFetch(
        `${origin}/`,
        `${origin}/`,
        settings,
        new HostPacer(),
        () => 0,
        () => true,
      );
      assert.equal(answer.kind, 'failed');
      assert.match(answer.kind === 'failed' ? answer.reason : '', /private|loopback/);
    }
    assert.equal(site.requests.length, 0, 'no connection was made');
    // The crawl allows them only for a site that is itself on such an address.
    assert.equal(await siteIsPrivate(`${site.origin}/`), true);
    assert.equal(await siteIsPrivate('https://93.184.215.14/'), false);
  });

  it('should crawl nothing when robots.txt disallows everything', async () => {
    const closed = await startSite({ '/robots.txt': { body: 'User-agent: *\nDisallow: /\n' }, '/': { body: html('Home', '<p>x</p>') } });
    try {
      assert.deepEqual(await crawl(`${closed.origin}/`), []);
      assert.deepEqual(
        closed.requests.map((request) => request.path),
        ['/robots.txt'],
      );
    } finally {
      await closed.close();
    }
  });
});
