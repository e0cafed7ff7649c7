import { stableId } from '../core/hash.ts';

/**
 * URLs as a crawl compares them: one canonical spelling per page, so the same page reached by
 * two links (a fragment, a default port, an upper-case host) is fetched and recorded once.
 */

/** Extensions of links that are never documents Folio reads: not fetched at all. */
const NOT_DOCUMENTS =
  /\.(css|js|mjs|json|xml|rss|atom|ico|svg|gif|bmp|mp3|mp4|m4a|m4v|mov|avi|webm|ogg|wav|flac|zip|gz|tgz|bz2|xz|7z|rar|tar|exe|msi|dmg|pkg|deb|rpm|iso|apk|woff2?|ttf|otf|eot)$/i;

/**
 * The canonical form of `href` read against `base`: http(s) only, no fragment, no credentials,
 * lower-case host, default port dropped, empty path as `/`. Undefined for anything else.
 *
 * @example
 * canonicalUrl('../b.html#top', 'HTTP://Example.org:80/a/x.html') // 'http://example.org/b.html'
 */
export function canonicalUrl(href: string, base?: string | URL): string | undefined {
  let url: URL;
  try {
    url = base === undefined ? new URL(href) : new URL(href, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username !== '' || url.password !== '') return undefined;
  url.hash = '';
  // `URL` already lower-cases the host and drops default ports.
  return url.href;
}

/**
 * True when both URLs are on the same site: the same host and port, where `http://host` and
 * `https://host` on their default ports count as one (a site that moves its pages to https).
 *
 * @example
 * sameSite('http://a.org/x', 'https://a.org/y') // true
 */
export function sameSite(a: string, b: string): boolean {
  try {
    const [x, y] = [new URL(a), new URL(b)];
    // `URL` leaves the port empty when it is the scheme's default: 80 for http, 443 for https.
    return isWeb(x) && isWeb(y) && x.hostname === y.hostname && x.port === y.port;
  } catch {
    return false;
  }
}

/** The origins under which pages of `url`'s site are recorded: both schemes on default ports. */
export function siteOrigins(url: string): string[] {
  const { protocol, host, port } = new URL(url);
  if (port !== '') return [`${protocol}//${host}/`];
  return [`http://${host}/`, `https://${host}/`];
}

function isWeb(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

/** True for links to stylesheets, scripts, media and archives: never fetched by a crawl. */
export function isNonDocumentLink(url: string): boolean {
  try {
    return NOT_DOCUMENTS.test(new URL(url).pathname);
  } catch {
    return true;
  }
}

/**
 * The relative path of a crawled document (output names of `folio convert`): the URL's path, a
 * folder's page as `index`, a page's extension replaced by `.md`, a query kept apart by a hash.
 *
 * @example
 * crawlPath('https://a.org/docs/guide.html', true) // 'docs/guide.md'
 */
export function crawlPath(url: string, page: boolean): string {
  const { pathname, search } = new URL(url);
  let path = pathname;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    // Keep it encoded.
  }
  path = path.replace(/^\/+/, '');
  if (path === '' || path.endsWith('/')) path += 'index';
  if (search !== '') path += `-${stableId(search).slice(0, 8)}`;
  return page ? `${path.replace(/\.(html?|php|aspx?|jsp)$/i, '')}.md` : path;
}
