/**
 * Local files, folders and globs as a stream of documents.
 *
 * Inputs are expanded to a sorted list of paths first (names only, cheap), because every
 * document's `relativePath` is relative to the common root of *all* inputs; the bytes are then
 * read one file at a time as the consumer pulls, so memory holds one document at most.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigurationError } from '../core/errors.ts';
import { sha256, stableId } from '../core/hash.ts';
import type { SourceDocument } from '../core/types.ts';
import { READABLE_TYPES } from '../pipeline/formats/mime.ts';
import type { SourceListing } from './listing.ts';
import { SUPPORTED_MIME_TYPES, sniffMime } from './sniff.ts';
import type { SourceItem } from './types.ts';
import { sourceFailure } from './types.ts';

export interface FileSourceOptions {
  /**
   * Files larger than this become a `FOLIO_TOO_LARGE` failure instead of being read.
   * @default 524288000 (500 MB)
   */
  readonly maxBytes?: number;
  /**
   * Skip names starting with `.` when walking folders (`.git`, `.DS_Store`).
   * @default true
   */
  readonly skipHidden?: boolean;
  /**
   * The folder relative paths start from; by default the common root of all inputs.
   * @default undefined
   */
  readonly root?: string;
  /**
   * Files and folders never read, e.g. the run's own output folder inside an input folder.
   * @default []
   */
  readonly exclude?: readonly string[];
  /** Stops the walk between files. */
  readonly signal?: AbortSignal;
  /**
   * Told what each input covers and which files are in it, for a sync that removes what is gone
   * (see {@link SourceListing}).
   * @default undefined
   */
  readonly listing?: SourceListing;
}

const GLOB_CHARS = /[*?[\]{}]/;

type Planned = { readonly path: string } | { readonly failure: ReturnType<typeof sourceFailure> };

/**
 * Documents from files, folders (recursive) and glob patterns. A missing path, an unreadable,
 * empty, too large or unsupported file becomes a {@link SourceFailure} record, never a throw.
 *
 * @example
 * for await (const item of fileSource(['papers/', 'scans/*.png'])) {
 *   if (isSourceFailure(item)) console.warn(item.reason); else console.log(item.relativePath, item.mime);
 * }
 */
export async function* fileSource(paths: readonly string[], options: Readonly<FileSourceOptions> = {}): AsyncGenerator<SourceItem> {
  const { maxBytes = 500 * 1024 * 1024, skipHidden = true, root, exclude = [], signal, listing } = options;
  const excluded = exclude.map((path) => resolve(path));
  if (!Array.isArray(paths)) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`paths\` to be an array of strings, got \`${String(paths)}\` (${typeof paths})`);
  }
  if (!(Number.isFinite(maxBytes) && maxBytes > 0)) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`maxBytes\` to be a number from 1 and up, got \`${maxBytes}\` (${typeof maxBytes})`);
  }
  const planned: Planned[] = [];
  const roots: string[] = [];
  for (const input of paths) {
    signal?.throwIfAborted();
    for await (const item of expand(input, skipHidden, roots, listing)) planned.push(item);
  }
  const base = root === undefined ? commonRoot(roots) : resolve(root);
  const seen = new Set<string>();
  for (const item of planned) {
    signal?.throwIfAborted();
    if ('failure' in item) {
      yield item.failure;
      continue;
    }
    if (seen.has(item.path)) continue;
    seen.add(item.path);
    if (excluded.some((path) => item.path === path || item.path.startsWith(path + sep))) continue;
    listing?.present(pathToFileURL(item.path).href);
    yield await readDocument(item.path, base, maxBytes);
  }
}

/** Paths of one input, sorted so runs are deterministic; `roots` collects where each input starts. */
async function* expand(input: string, skipHidden: boolean, roots: string[], listing: SourceListing | undefined): AsyncGenerator<Planned> {
  if (typeof input !== 'string' || input === '') {
    yield { failure: sourceFailure(String(input), 'FOLIO_BAD_INPUT', `Expected a path, got \`${String(input)}\``) };
    return;
  }
  const absolute = resolve(input);
  let info;
  try {
    info = await stat(absolute);
  } catch (error) {
    if (GLOB_CHARS.test(input)) {
      yield* expandGlob(input, skipHidden, roots, listing);
      return;
    }
    const code = codeOf(error, 'FOLIO_NOT_FOUND');
    // A file that is not there any more is gone; one we may not look at is not.
    if (code === 'FOLIO_NOT_FOUND') listing?.gone(pathToFileURL(absolute).href);
    else listing?.failed(`${input}: ${reasonOf(error)}`);
    yield { failure: sourceFailure(input, code, `${input}: ${reasonOf(error)}`) };
    return;
  }
  if (info.isDirectory()) {
    roots.push(absolute);
    let paths: string[];
    try {
      paths = await walk(absolute, skipHidden);
    } catch (error) {
      listing?.failed(`${input}: ${reasonOf(error)}`);
      yield {
        failure: sourceFailure(input, 'FOLIO_LISTING_FAILED', `${input}: the folder could not be listed (${reasonOf(error)}); nothing under it is pruned`),
      };
      return;
    }
    listing?.folder(absolute);
    for (const path of paths) yield { path };
  } else {
    roots.push(dirname(absolute));
    yield { path: absolute };
  }
}

async function* expandGlob(pattern: string, skipHidden: boolean, roots: string[], listing: SourceListing | undefined): AsyncGenerator<Planned> {
  const matches: string[] = [];
  // The static part of the pattern (before the first wildcard) is where its paths start.
  const staticPart = pattern.split(/[\\/]/).findIndex((part) => GLOB_CHARS.test(part));
  const staticFolder = resolve(pattern.split(/[\\/]/).slice(0, Math.max(0, staticPart)).join('/') || '.');
  let folders = false;
  // Loaded here, not imported by name: a named import of `glob` (Node 22+) would stop an older
  // Node at link time, before the package's own version check could name the versions.
  const { glob } = await import('node:fs/promises');
  try {
    for await (const match of glob(pattern)) {
      const absolute = resolve(match);
      if (skipHidden && absolute.split(sep).some((part) => part.startsWith('.') && part.length > 1 && !pattern.includes(part))) continue;
      const info = await stat(absolute).catch(() => undefined);
      if (info?.isFile()) matches.push(absolute);
      else if (info?.isDirectory()) {
        folders = true;
        matches.push(...(await walk(absolute, skipHidden)));
      }
    }
  } catch (error) {
    listing?.failed(`${pattern}: ${reasonOf(error)}`);
    yield {
      failure: sourceFailure(pattern, 'FOLIO_LISTING_FAILED', `${pattern}: the pattern could not be listed (${reasonOf(error)}); nothing it covers is pruned`),
    };
    return;
  }
  // A pattern that matches folders covers what is under them, which its own syntax cannot say:
  // such a glob is listed but never pruned from. One that matches nothing may be mistyped: the same.
  if (!folders && matches.length > 0) listing?.glob(staticFolder, pattern);
  if (matches.length === 0) {
    yield { failure: sourceFailure(pattern, 'FOLIO_NOT_FOUND', `${pattern}: no file matches this pattern`) };
    return;
  }
  matches.sort();
  roots.push(staticFolder);
  for (const path of matches) yield { path };
}

async function walk(dir: string, skipHidden: boolean): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if (
      skipHidden &&
      relative(dir, path)
        .split(sep)
        .some((part) => part.startsWith('.'))
    )
      continue;
    files.push(path);
  }
  return files.sort();
}

/** The deepest folder containing every root. */
export function commonRoot(paths: readonly string[]): string {
  if (paths.length === 0) return process.cwd();
  let parts = (paths[0] as string).split(sep);
  for (const path of paths.slice(1)) {
    const other = path.split(sep);
    let i = 0;
    while (i < parts.length && i < other.length && parts[i] === other[i]) i++;
    parts = parts.slice(0, i);
  }
  const joined = parts.join(sep);
  return joined === '' ? sep : joined;
}

async function readDocument(path: string, base: string, maxBytes: number): Promise<SourceItem> {
  const source = path;
  try {
    const info = await stat(path);
    if (info.size === 0) return sourceFailure(source, 'FOLIO_EMPTY_FILE', `${source}: the file is empty (0 bytes)`);
    if (info.size > maxBytes) {
      return sourceFailure(source, 'FOLIO_TOO_LARGE', `${source}: ${info.size} bytes is more than \`maxBytes\` (${maxBytes})`);
    }
    const buffer = await readFile(path);
    const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    if (bytes.byteLength === 0) return sourceFailure(source, 'FOLIO_EMPTY_FILE', `${source}: the file is empty (0 bytes)`);
    const mime = sniffMime(bytes, path);
    if (!SUPPORTED_MIME_TYPES.has(mime)) {
      return sourceFailure(source, 'FOLIO_UNSUPPORTED_TYPE', `${source}: unsupported content (sniffed as ${mime}); Folio reads ${READABLE_TYPES}`);
    }
    const uri = pathToFileURL(path).href;
    const rel = isAbsolute(relative(base, path)) || relative(base, path).startsWith('..') ? (path.split(sep).pop() ?? path) : relative(base, path);
    const document: SourceDocument = {
      id: stableId(uri),
      uri,
      relativePath: rel.split(sep).join('/'),
      mime,
      bytes,
      contentHash: sha256(bytes),
      modifiedAt: info.mtime,
    };
    return document;
  } catch (error) {
    return sourceFailure(source, codeOf(error, 'FOLIO_UNREADABLE'), `${source}: ${reasonOf(error)}`);
  }
}

function codeOf(error: unknown, fallback: string): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return 'FOLIO_NOT_FOUND';
  if (code === 'EACCES' || code === 'EPERM' || code === 'EISDIR') return 'FOLIO_UNREADABLE';
  return fallback;
}

function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return 'no such file or folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return error instanceof Error ? error.message : String(error);
}
