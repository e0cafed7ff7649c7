/**
 * The oldest Node.js Folio runs on, checked before anything else loads. An older Node otherwise
 * fails deep inside with an error that names neither version (`'node:fs/promises' does not
 * provide an export named 'glob'`). Every entry point of the package imports
 * `core/require-node.ts` first, which calls {@link assertSupportedNode}.
 */
import { ConfigurationError } from './errors.ts';

/** `engines.node` of package.json (a test keeps them equal). */
export const MIN_NODE = '22.17.0';

/** Whether version `found` (e.g. `20.20.2`) is at least `min`. */
export function nodeAtLeast(found: string, min: string = MIN_NODE): boolean {
  const have = found.replace(/^v/, '').split('.').map(Number);
  const need = min.split('.').map(Number);
  for (let i = 0; i < need.length; i++) {
    const a = have[i] ?? 0;
    const b = need[i] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}

/**
 * Throw a ConfigurationError (`FOLIO_NODE_VERSION`) naming both versions when the running Node is
 * older than {@link MIN_NODE}.
 *
 * @example
 * assertSupportedNode()   // on Node 20: "@folio-ocr/folio needs Node.js 22.17.0 or newer; this is Node.js 20.20.2"
 */
export function assertSupportedNode(found: string = process.versions.node): void {
  if (nodeAtLeast(found)) return;
  throw new ConfigurationError(
    'FOLIO_NODE_VERSION',
    `@folio-ocr/folio needs Node.js ${MIN_NODE} or newer (package.json engines: >=${MIN_NODE.replace(/\.0$/, '')}); this is Node.js ${found}. Install a newer Node (e.g. 24 LTS) or run it with npx node@24`,
    { meta: { supported: `>=${MIN_NODE}`, found } },
  );
}
