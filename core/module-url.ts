/**
 * Modules started by URL (worker threads, optional entry points) must be named with the
 * extension of the module that starts them: `.ts` when Folio runs from its sources (Node strips
 * the types), `.js` when it runs from the built `dist/` of the installed package. A literal
 * `new URL('./worker.ts', import.meta.url)` would point at a file the package does not ship.
 */
import { extname } from 'node:path';

/**
 * The URL of `specifier` (a relative path without extension) beside the module at `base`,
 * ending in `base`'s own extension.
 *
 * @example
 * new Worker(siblingModule('./worker', import.meta.url));   // worker.ts from source, worker.js from dist
 */
export function siblingModule(specifier: string, base: string | URL): URL {
  const from = new URL(base);
  const ext = extname(from.pathname) === '.ts' ? '.ts' : '.js';
  return new URL(`${specifier}${ext}`, from);
}
