/**
 * `sitemap.xml` read for its `<loc>` entries only, by a scanner rather than an XML parser: no
 * DTD, no entities beyond the five predefined ones, no external anything. A sitemap index lists
 * further sitemaps; a plain one lists pages.
 */

export interface Sitemap {
  /** Page URLs (`<urlset>`). */
  readonly urls: readonly string[];
  /** Further sitemaps (`<sitemapindex>`). */
  readonly sitemaps: readonly string[];
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * @example
 * parseSitemap('<urlset><url><loc>https://a.org/x</loc></url></urlset>') // { urls: ['https://a.org/x'], sitemaps: [] }
 */
export function parseSitemap(xml: string): Sitemap {
  const index = /<(?:[\w-]+:)?sitemapindex[\s>]/i.test(xml);
  const locs: string[] = [];
  for (const match of xml.matchAll(/<(?:[\w-]+:)?loc>\s*(?:<!\[CDATA\[)?([^<\]]*?)(?:\]\]>)?\s*<\/(?:[\w-]+:)?loc>/gi)) {
    const text = (match[1] ?? '').replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ENTITIES[name] ?? '').trim();
    if (text !== '') locs.push(text);
  }
  return index ? { urls: [], sitemaps: locs } : { urls: locs, sitemaps: [] };
}
