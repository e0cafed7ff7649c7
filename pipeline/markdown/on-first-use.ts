/**
 * Synchronous loading of a dependency on first use, for the parsers that call it synchronously
 * but seldom: KaTeX (formulas) and rehype-parse with parse5 (HTML the table fast path cannot
 * read). Loaded eagerly, they cost every worker thread ~0.1 s of start-up (some 55 modules) on a
 * text-layer run that never reaches them. `require` of an ES module gives the same instance
 * `import` would (one module cache), resolved with the `import` condition as before.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/**
 * A getter that loads the ES module `specifier` on its first call and returns its namespace.
 *
 * @example
 * const katex = onFirstUse<typeof import('katex')>('katex');
 * katex().default.renderToString('x^2');
 */
export function onFirstUse<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(fileURLToPath(import.meta.resolve(specifier))) as T);
}
