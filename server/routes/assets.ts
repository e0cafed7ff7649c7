/**
 * The app's files (server/web): `/` is its page, `/app/<file>` the rest. The browser code is
 * TypeScript; Node's own type stripper turns it into JavaScript when served (positions kept, so
 * the browser's line numbers are the file's), so a fresh clone runs without a build step. Only
 * the files found in that one folder are served, and everything is local: the page's content
 * security policy lets it load nothing from elsewhere.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import * as nodeModule from 'node:module';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpError } from '../http-error.ts';

const WEB_DIR = fileURLToPath(new URL('../web/', import.meta.url));

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.ts': 'text/javascript; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Node prints an ExperimentalWarning on the first strip; expected here, so that one is held back. */
function stripTypes(code: string, file: string): string {
  const strip = (nodeModule as { stripTypeScriptTypes?: (code: string, options: { mode: 'strip' }) => string }).stripTypeScriptTypes;
  if (!strip)
    throw new HttpError(
      500,
      'server_error',
      `this Node (${process.version}) cannot strip TypeScript types for the browser (module.stripTypeScriptTypes is missing)`,
    );
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (String(warning).includes('stripTypeScriptTypes')) return;
    (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return strip(code, { mode: 'strip' });
  } catch (error) {
    throw new HttpError(500, 'server_error', `server/web/${file}: cannot strip its types (${error instanceof Error ? error.message : String(error)})`);
  } finally {
    process.emitWarning = emit;
  }
}

function decodeOrNull(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

export class Assets {
  #files: Promise<Set<string>> | undefined;
  readonly #cache = new Map<string, { mtimeMs: number; body: Buffer }>();

  /** True for the paths this serves (`/`, `/index.html`, `/app/…`). */
  static owns(path: string): boolean {
    return path === '/' || path === '/index.html' || path.startsWith('/app/');
  }

  async serve(res: ServerResponse, path: string): Promise<number> {
    const file = path === '/' || path === '/index.html' ? 'index.html' : (decodeOrNull(path.slice('/app/'.length)) ?? '');
    this.#files ??= readdir(WEB_DIR).then((names) => new Set(names.filter((name) => TYPES[extname(name)] !== undefined && name !== 'tsconfig.json')));
    if (!(await this.#files).has(file)) throw new HttpError(404, 'not_found', `no app file \`${file}\``);
    const full = join(WEB_DIR, file);
    const { mtimeMs } = await stat(full);
    let cached = this.#cache.get(file);
    if (!cached || cached.mtimeMs !== mtimeMs) {
      const raw = await readFile(full, 'utf8');
      cached = { mtimeMs, body: Buffer.from(extname(file) === '.ts' ? stripTypes(raw, file) : raw) };
      this.#cache.set(file, cached);
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)]!,
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      ...(file === 'index.html' ? { 'content-security-policy': CONTENT_SECURITY_POLICY, 'referrer-policy': 'no-referrer' } : {}),
    });
    res.end(cached.body);
    return 200;
  }
}
