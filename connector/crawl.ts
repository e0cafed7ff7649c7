/**
 * A website as a source: `folio ingest https://intranet/ --crawl`. The crawl reads robots.txt
 * first and obeys it; takes its pages from the sitemap when the site has one, else follows
 * same-site links breadth-first up to `depth` hops; records each page under its canonical URL;
 * ingests PDFs, images and Markdown files linked from the pages as documents of their own; asks
 * one host one request at a time at the pace asked (or robots.txt's `Crawl-delay`); and on a
 * re-sync sends the validators recorded last time, so an unchanged page costs a 304. Pages that
 * answer 404 or 410 are pruned; a crawl that reached every page it covers also prunes those it
 * no longer reaches.
 */
import { ConfigurationError } from '../core/errors.ts';
import { stableId } from '../core/hash.ts';
import { parseVersion, toItem } from './crawl-document.ts';
import { type CrawlFetchSettings, type CrawlResponse, crawlFetch, HostPacer, siteIsPrivate, type Validators } from './crawl-fetch.ts';
import { canonicalUrl, isNonDocumentLink, sameSite, siteOrigins } from './crawl-url.ts';
import type { SourceListing } from './listing.ts';
import { ALLOW_ALL, parseRobots, type RobotsRules } from './robots.ts';
import { parseSitemap } from './sitemap.ts';
import type { SourceItem } from './types.ts';
import { sourceFailure } from './types.ts';

export interface CrawlOptions {
  /**
   * Link hops followed from a start page (0: the start page and the files it links).
   * @default 3
   */
  readonly depth?: number;
  /**
   * Documents fetched per site, pages and linked files together; a crawl cut short prunes
   * nothing but 404s.
   * @default 1000
   */
  readonly maxPages?: number;
  /**
   * Time between two requests to one host, in ms; robots.txt's `Crawl-delay` raises it (to 30 s at most).
   * @default 100
   */
  readonly delayMs?: number;
  /**
   * The user agent sent, and matched against robots.txt groups.
   * @default 'folio'
   */
  readonly userAgent?: string;
  /** @default 30000 */
  readonly timeoutMs?: number;
  /** Largest body accepted, in bytes. @default 209715200 (200 MB) */
  readonly maxBytes?: number;
  /** @default 5 */
  readonly maxRedirects?: number;
  /** Extra attempts after a transient fault (`core/retry.ts`). @default 2 */
  readonly retries?: number;
  /** @default 500 */
  readonly retryDelayMs?: number;
  readonly signal?: AbortSignal;
  /** Told what the crawl covers, which pages it found and which are gone. @default undefined */
  readonly listing?: SourceListing;
  /** The version recorded for a document last time: its validators are sent for a conditional request. @default undefined */
  readonly knownVersion?: (id: string) => Promise<string | undefined>;
}

const SITEMAPS_READ = 20;
const MAX_CRAWL_DELAY_MS = 30_000;
const PAGE_EXTENSIONS = /(\/|\.(html?|xhtml|php|aspx?|jsp|cfm))$/i;

/**
 * @example
 * for await (const item of crawlSource(['https://intranet.example/'], { depth: 2 })) …
 */
export async function* crawlSource(startUrls: readonly string[], options: Readonly<CrawlOptions> = {}): AsyncGenerator<SourceItem> {
  const { depth = 3, maxPages = 1000, delayMs = 100, userAgent = 'folio', listing, knownVersion, signal } = options;
  for (const [name, value, min] of [
    ['depth', depth, 0],
    ['maxPages', maxPages, 1],
    ['delayMs', delayMs, 0],
  ] as const) {
    if (!(Number.isInteger(value) && value >= min)) {
      throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`${name}\` to be an integer from ${min} and up, got \`${String(value)}\` (${typeof value})`);
    }
  }
  const pacer = new HostPacer();
  for (const input of startUrls) {
    const start = canonicalUrl(input);
    if (start === undefined) {
      yield sourceFailure(input, 'FOLIO_BAD_URL', `${input}: not an http(s) URL to crawl`);
      continue;
    }
    const settings: CrawlFetchSettings = {
      timeoutMs: options.timeoutMs ?? 30_000,
      maxBytes: options.maxBytes ?? 200 * 1024 * 1024,
      maxRedirects: options.maxRedirects ?? 5,
      retries: options.retries ?? 2,
      retryDelayMs: options.retryDelayMs ?? 500,
      userAgent,
      allowPrivate: await siteIsPrivate(start),
      signal,
    };
    yield* crawlSite(start, { settings, pacer, depth, maxPages, delayMs, listing, knownVersion });
  }
}

interface SiteCrawl {
  readonly settings: CrawlFetchSettings;
  readonly pacer: HostPacer;
  readonly depth: number;
  readonly maxPages: number;
  readonly delayMs: number;
  readonly listing: SourceListing | undefined;
  readonly knownVersion: ((id: string) => Promise<string | undefined>) | undefined;
}

async function* crawlSite(start: string, crawl: SiteCrawl): AsyncGenerator<SourceItem> {
  const { settings, pacer, listing } = crawl;
  const origin = `${new URL(start).origin}/`;
  let robots: RobotsRules = ALLOW_ALL;
  const interval = (): number => Math.max(crawl.delayMs, Math.min(robots.crawlDelayMs ?? 0, MAX_CRAWL_DELAY_MS));
  const get = (url: string, mayFetch: (url: string) => boolean, validators?: Validators): Promise<CrawlResponse> =>
    crawlFetch(url, origin, settings, pacer, interval, mayFetch, validators);

  const robotsAnswer = await get(`${origin}robots.txt`, () => true);
  if (robotsAnswer.kind === 'ok') robots = parseRobots(new TextDecoder().decode(robotsAnswer.bytes), settings.userAgent);
  else if (robotsAnswer.kind === 'failed') {
    // RFC 9309: a robots.txt that cannot be read means nothing may be crawled for now.
    listing?.failed(robotsAnswer.reason);
    yield sourceFailure(start, robotsAnswer.code, `${start}: robots.txt could not be read, so the site is not crawled (${robotsAnswer.reason})`);
    return;
  }
  const allowed = (url: string): boolean => {
    const { pathname, search } = new URL(url);
    return robots.allowed(`${pathname}${search}`);
  };

  const fromSitemap = yield* readSitemaps(robots, origin, get, allowed);
  const queue: { url: string; depth: number }[] = [{ url: start, depth: 0 }, ...fromSitemap.map((url) => ({ url, depth: 0 }))];
  const queued = new Set(queue.map((entry) => entry.url));
  const recorded = new Set<string>();
  let fetched = 0;
  let complete = true;
  const follow = (links: readonly string[], depth: number): void => {
    if (depth > crawl.depth) return;
    for (const link of links) {
      if (queued.has(link) || !sameSite(link, origin) || isNonDocumentLink(link)) continue;
      // With a sitemap, it names the pages: links are followed to the files pages offer.
      if (fromSitemap.length > 0 && PAGE_EXTENSIONS.test(new URL(link).pathname)) continue;
      queued.add(link);
      queue.push({ url: link, depth });
    }
  };

  while (queue.length > 0) {
    const { url, depth } = queue.shift()!;
    settings.signal?.throwIfAborted();
    // Disallowed pages are never asked for; a page already recorded (as another's canonical) not twice.
    if (!allowed(url) || recorded.has(url)) continue;
    if (fetched >= crawl.maxPages) {
      complete = false;
      break;
    }
    fetched++;
    const id = stableId(url);
    const before = parseVersion(await crawl.knownVersion?.(id));
    const answer = await get(url, allowed, before);
    if (answer.kind === 'not-modified') {
      listing?.unchanged(url);
      recorded.add(url);
      follow(before?.links ?? [], depth + 1);
      continue;
    }
    if (answer.kind === 'gone') {
      listing?.gone(url);
      if (depth === 0 && url === start) yield sourceFailure(url, 'FOLIO_HTTP_STATUS', `${url}: HTTP ${answer.status}; nothing to crawl`);
      continue;
    }
    if (answer.kind === 'failed') {
      // Still there, as far as we know: never pruned for a failure.
      listing?.present(url);
      if (answer.transient) complete = false;
      yield sourceFailure(url, answer.code, answer.reason);
      continue;
    }
    const finalUrl = canonicalUrl(answer.url) ?? url;
    if (finalUrl !== url && (recorded.has(finalUrl) || queued.has(finalUrl))) continue;
    queued.add(finalUrl);
    const item = await toItem(answer, finalUrl, (links) => follow(links, depth + 1), recorded);
    if (item === undefined) continue;
    if (!('bytes' in item)) listing?.present(finalUrl);
    else {
      listing?.present(item.uri);
      recorded.add(item.uri);
    }
    yield item;
  }
  // Every page the crawl covers was reached: one it did not reach is gone from the site.
  if (complete) for (const prefix of siteOrigins(origin)) listing?.prefix(prefix, (uri) => sameSite(uri, origin));
}

/** Page URLs of the site's sitemaps (robots.txt's `Sitemap:` lines, else `/sitemap.xml`); none when it has none. */
async function* readSitemaps(
  robots: RobotsRules,
  origin: string,
  get: (url: string, mayFetch: (url: string) => boolean) => Promise<CrawlResponse>,
  allowed: (url: string) => boolean,
): AsyncGenerator<SourceItem, string[]> {
  const pending = robots.sitemaps.length > 0 ? robots.sitemaps.filter((url) => sameSite(url, origin)) : [`${origin}sitemap.xml`];
  const urls: string[] = [];
  for (let read = 0; pending.length > 0 && read < SITEMAPS_READ; read++) {
    const url = pending.shift()!;
    // A sitemap robots.txt names is offered to crawlers; the default one is asked for only where allowed.
    if (!robots.sitemaps.includes(url) && !allowed(url)) continue;
    const answer = await get(url, allowed);
    if (answer.kind !== 'ok') {
      // Named by robots.txt and broken: say so (a missing default sitemap is just absent).
      if (robots.sitemaps.includes(url) && answer.kind === 'failed') yield sourceFailure(url, answer.code, `${answer.reason} (sitemap)`);
      continue;
    }
    const sitemap = parseSitemap(new TextDecoder().decode(answer.bytes));
    pending.push(...sitemap.sitemaps.filter((next) => sameSite(next, origin)));
    for (const page of sitemap.urls) {
      const canonical = canonicalUrl(page);
      if (canonical !== undefined && sameSite(canonical, origin) && !urls.includes(canonical)) urls.push(canonical);
    }
  }
  return urls;
}
