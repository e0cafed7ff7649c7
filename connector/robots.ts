/**
 * `robots.txt` as RFC 9309 reads it: the group for our user agent (else `*`), `Allow` and
 * `Disallow` with `*` and `$`, the longest match winning and `Allow` winning a tie; plus the
 * de-facto `Crawl-delay` and `Sitemap` lines. A missing file allows everything.
 */

export interface RobotsRules {
  /** True when `path` (path and query of a URL) may be fetched. */
  allowed(path: string): boolean;
  /** The group's `Crawl-delay` in ms, if any. */
  readonly crawlDelayMs: number | undefined;
  /** Sitemap URLs the file names (absolute, as written). */
  readonly sitemaps: readonly string[];
}

interface Rule {
  readonly allow: boolean;
  readonly pattern: string;
  readonly regex: RegExp;
}

/** Everything allowed: no robots.txt (404), as RFC 9309 says. */
export const ALLOW_ALL: RobotsRules = { allowed: () => true, crawlDelayMs: undefined, sitemaps: [] };

/**
 * The rules of `text` for `agent` (matched case-insensitively as a product token).
 *
 * @example
 * parseRobots('User-agent: *\nDisallow: /private/', 'folio').allowed('/private/a.html') // false
 */
export function parseRobots(text: string, agent: string): RobotsRules {
  const token = agent.toLowerCase();
  const groups: { agents: string[]; rules: Rule[]; delay: number | undefined }[] = [];
  const sitemaps: string[] = [];
  let current: (typeof groups)[number] | undefined;
  let lastWasAgent = false;
  for (const raw of text.split(/\r?\n|\r/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === 'user-agent') {
      // Consecutive User-agent lines share one group.
      if (!lastWasAgent || current === undefined) {
        current = { agents: [], rules: [], delay: undefined };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (field === 'sitemap') {
      if (value !== '') sitemaps.push(value);
    } else if (current !== undefined && (field === 'allow' || field === 'disallow')) {
      // An empty Disallow allows everything: no rule.
      if (value !== '') current.rules.push({ allow: field === 'allow', pattern: value, regex: patternToRegExp(value) });
    } else if (current !== undefined && field === 'crawl-delay') {
      const seconds = Number(value);
      if (Number.isFinite(seconds) && seconds >= 0) current.delay = seconds * 1000;
    }
  }
  const mine = groups.filter((group) => group.agents.some((name) => name !== '*' && token.startsWith(name)));
  const chosen = mine.length > 0 ? mine : groups.filter((group) => group.agents.includes('*'));
  const rules = chosen.flatMap((group) => group.rules);
  const delays = chosen.map((group) => group.delay).filter((delay): delay is number => delay !== undefined);
  return {
    allowed: (path) => {
      let best: Rule | undefined;
      for (const rule of rules) {
        if (!rule.regex.test(path)) continue;
        const longer = best === undefined || rule.pattern.length > best.pattern.length;
        const tieAllows = best !== undefined && rule.pattern.length === best.pattern.length && rule.allow;
        if (longer || tieAllows) best = rule;
      }
      return best === undefined || best.allow;
    },
    crawlDelayMs: delays.length > 0 ? Math.max(...delays) : undefined,
    sitemaps,
  };
}

/** `*` any run of characters, a final `$` the end; otherwise a prefix match. */
function patternToRegExp(pattern: string): RegExp {
  const anchored = pattern.endsWith('$');
  const body = (anchored ? pattern.slice(0, -1) : pattern)
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}${anchored ? '$' : ''}`);
}
