/**
 * What a crawl makes of a 200 answer: a web page read as Markdown (its links handed back to the
 * crawl), or a linked file (PDF, image, Markdown) as it is; and the version recorded for either
 * (validators, and a page's links, which a later 304 has no body to read them from).
 */
import { sha256, stableId } from '../core/hash.ts';
import type { SourceDocument } from '../core/types.ts';
import type { CrawlResponse } from './crawl-fetch.ts';
import { crawlPath, sameSite } from './crawl-url.ts';
import { readHtmlPage } from './html-page.ts';
import { SUPPORTED_MIME_TYPES, sniffMime } from './sniff.ts';
import type { SourceItem } from './types.ts';
import { sourceFailure } from './types.ts';

/** What a crawled document's version records: the validators, and a page's links (a 304 has no body to read them from). */
export interface CrawlVersion {
  readonly etag?: string | undefined;
  readonly lastModified?: string | undefined;
  readonly links?: readonly string[];
}

/** The document (a page as Markdown, or a linked file) of a 200 answer; undefined for a duplicate or a `noindex` page. */
export async function toItem(
  answer: Extract<CrawlResponse, { kind: 'ok' }>,
  url: string,
  follow: (links: readonly string[]) => void,
  recorded: ReadonlySet<string>,
): Promise<SourceItem | undefined> {
  const { bytes, etag, lastModified } = answer;
  if (bytes.byteLength === 0) return sourceFailure(url, 'FOLIO_EMPTY_FILE', `${url}: the response body is empty`);
  const modifiedAt = lastModified === undefined ? undefined : new Date(lastModified);
  const dated = modifiedAt !== undefined && !Number.isNaN(modifiedAt.getTime()) ? { modifiedAt } : {};
  if (isHtml(answer.contentType, bytes)) {
    const page = await readHtmlPage(new TextDecoder().decode(bytes), url);
    const links = page.nofollow ? [] : page.links;
    follow(links);
    // Recorded under its canonical URL when that is on the site; a second copy is left out.
    const uri = page.canonical !== undefined && sameSite(page.canonical, url) ? page.canonical : url;
    if (page.noindex || page.markdown === '' || (uri !== url && recorded.has(uri))) return undefined;
    const markdown = new TextEncoder().encode(page.markdown);
    const version: CrawlVersion = { etag, lastModified, links };
    const document: SourceDocument = {
      id: stableId(uri),
      uri,
      relativePath: crawlPath(uri, true),
      mime: 'text/markdown',
      bytes: markdown,
      contentHash: sha256(markdown),
      version: JSON.stringify(version),
      ...dated,
    };
    return document;
  }
  const relativePath = crawlPath(url, false);
  const mime = sniffMime(bytes, relativePath);
  if (!SUPPORTED_MIME_TYPES.has(mime)) {
    return sourceFailure(
      url,
      'FOLIO_UNSUPPORTED_TYPE',
      `${url}: unsupported content (${answer.contentType || mime}); Folio reads web pages, PDF, images and Markdown`,
    );
  }
  const version: CrawlVersion = { etag, lastModified };
  const document: SourceDocument = {
    id: stableId(url),
    uri: url,
    relativePath,
    mime,
    bytes,
    contentHash: sha256(bytes),
    version: JSON.stringify(version),
    ...dated,
  };
  return document;
}

function isHtml(contentType: string, bytes: Uint8Array): boolean {
  if (/^\s*(text\/html|application\/xhtml\+xml)/i.test(contentType)) return true;
  if (contentType !== '' && !/^\s*(text\/plain|application\/octet-stream)/i.test(contentType)) return false;
  const head = new TextDecoder().decode(bytes.subarray(0, 512)).trimStart().toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html');
}

export function parseVersion(version: string | undefined): CrawlVersion | undefined {
  if (version === undefined) return undefined;
  try {
    const parsed = JSON.parse(version) as CrawlVersion;
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}
