/**
 * What a run's inputs cover and what was found in them, so that a sync can remove what is gone:
 * a document indexed from a folder or glob before and no longer listed in it, a file path that
 * no longer exists, a URL that now answers 404 or 410, an S3 key no longer in its bucket. A listing that failed (an unreadable
 * folder, a glob that could not be walked) marks the whole listing incomplete, and an incomplete
 * listing must never be used to prune: a folder that cannot be read has not been emptied.
 */
import { resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Part of the world an input covers. */
export type SourceScope =
  /** Every file under a folder: `prefix` is the folder's `file://` URL with a trailing `/`. */
  | { readonly kind: 'folder'; readonly prefix: string }
  /** The files an absolute glob pattern matches; `prefix` is the `file://` URL of its static folder. */
  | { readonly kind: 'glob'; readonly prefix: string; readonly pattern: string }
  /** One document that is gone (a missing file path, a URL answering 404 or 410). */
  | { readonly kind: 'exact'; readonly uri: string }
  /**
   * Every document under a URI prefix that `matches` accepts: an `s3://bucket/prefix` listed in
   * full, or a crawled site (`https://host/`) whose pages all answered.
   */
  | { readonly kind: 'prefix'; readonly prefix: string; readonly matches?: (uri: string) => boolean };

/**
 * Filled in by the connectors as they list their inputs (pass it as `listing`); read once the
 * sources are exhausted.
 *
 * @example
 * const listing = new SourceListing();
 * for await (const item of sourcesFrom(['docs/'], { listing })) …
 * if (listing.complete) prune(listing.prefixes, (uri) => listing.isGone(uri));
 */
export class SourceListing {
  readonly #scopes: SourceScope[] = [];
  readonly #patterns = new Map<string, RegExp>();
  readonly #present = new Set<string>();
  readonly #problems: string[] = [];
  #unchanged = 0;

  get scopes(): readonly SourceScope[] {
    return this.#scopes;
  }

  /** Why the listing is incomplete, one reason per input that could not be listed. */
  get problems(): readonly string[] {
    return this.#problems;
  }

  /** True when every input was listed: only then may gone documents be pruned. */
  get complete(): boolean {
    return this.#problems.length === 0;
  }

  /** `file://` URL prefixes (or exact URIs) under which gone documents can be, for a prefix query. */
  get prefixes(): readonly string[] {
    return this.#scopes.map((scope) => (scope.kind === 'exact' ? scope.uri : scope.prefix));
  }

  folder(path: string): void {
    this.#scopes.push({ kind: 'folder', prefix: folderPrefix(path) });
  }

  glob(staticFolder: string, pattern: string): void {
    const absolute = resolve(pattern);
    this.#scopes.push({ kind: 'glob', prefix: folderPrefix(staticFolder), pattern: absolute });
    this.#patterns.set(absolute, globToRegExp(absolute));
  }

  gone(uri: string): void {
    this.#scopes.push({ kind: 'exact', uri });
  }

  /** A document that is there (read or not: a file that fails to open still exists). */
  present(uri: string): void {
    this.#present.add(uri);
  }

  /**
   * A listed object whose version (S3 ETag, size and date) the sink already holds: present, and
   * never downloaded. Counted so the run can report it.
   */
  unchanged(uri: string): void {
    this.#present.add(uri);
    this.#unchanged += 1;
  }

  /** How many documents a connector skipped as unchanged before reading them. */
  get unchangedCount(): number {
    return this.#unchanged;
  }

  /** A URI prefix listed in full (see the `prefix` scope); `matches` narrows it (a glob over S3 keys). */
  prefix(prefix: string, matches?: (uri: string) => boolean): void {
    this.#scopes.push(matches === undefined ? { kind: 'prefix', prefix } : { kind: 'prefix', prefix, matches });
  }

  failed(reason: string): void {
    this.#problems.push(reason);
  }

  /** True when `uri` lies in a scope of this listing and was not found in it. */
  isGone(uri: string): boolean {
    if (this.#present.has(uri)) return false;
    return this.#scopes.some((scope) => {
      if (scope.kind === 'exact') return scope.uri === uri;
      if (!uri.startsWith(scope.prefix)) return false;
      if (scope.kind === 'folder') return true;
      if (scope.kind === 'prefix') return scope.matches?.(uri) ?? true;
      let path: string;
      try {
        path = fileURLToPath(uri);
      } catch {
        return false;
      }
      return this.#patterns.get(scope.pattern)?.test(path) ?? false;
    });
  }
}

function folderPrefix(path: string): string {
  const href = pathToFileURL(resolve(path)).href;
  return href.endsWith('/') ? href : `${href}/`;
}

/** The glob syntax `fs.glob` reads (`*`, `**`, `?`, `[…]`, `{a,b}`) as a regular expression over whole paths. */
export function globToRegExp(pattern: string): RegExp {
  const separator = sep === '\\' ? '[\\\\/]' : '/';
  const notSeparator = sep === '\\' ? '[^\\\\/]' : '[^/]';
  let out = '';
  let braces = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        // `**/` matches any number of folders, none included.
        const slash = pattern[i + 2] === '/' || pattern[i + 2] === sep;
        out += slash ? `(?:.*${separator})?` : '.*';
        i += slash ? 2 : 1;
      } else {
        out += `${notSeparator}*`;
      }
    } else if (c === '?') {
      out += notSeparator;
    } else if (c === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end === -1) {
        out += '\\[';
      } else {
        out += `[${pattern
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) {
      out += '|';
    } else if (c === '/' || c === sep) {
      out += separator;
    } else {
      out += c.replace(/[.+^$()|\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${out}$`);
}
