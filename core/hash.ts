import { createHash } from 'node:crypto';

/** sha256 hex of bytes or a string. */
export function sha256(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A short deterministic id (first 20 hex chars of sha256 over the parts joined by NUL). */
export function stableId(...parts: readonly (string | number)[]): string {
  return sha256(parts.join('\u0000')).slice(0, 20);
}
