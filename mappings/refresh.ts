/**
 * Refresh off while a new chunk index is bulk-loaded, then back on. A refresh makes a new segment
 * searchable; every second (the mapping's `refresh_interval`) during a load of seconds, that is
 * Elasticsearch CPU spent on segments nobody searches yet, on the cores the writer needs. The
 * writer refreshes once at the end instead.
 */
import type { Client } from '@elastic/elasticsearch';
import { indexBody } from './definitions.ts';

/** The setting a bulk-loaded chunk index is created with. */
export const BULK_LOAD_REFRESH = '-1';

/** The chunk mapping's own `refresh_interval` (`chunks.json`), the one to restore. */
export function chunkRefreshInterval(): string {
  return String(indexBody('chunks').settings.refresh_interval ?? '1s');
}

/**
 * Put the chunk mapping's `refresh_interval` back on `index`.
 *
 * @example
 * await restoreRefresh(client, 'folio-chunks');
 */
export async function restoreRefresh(client: Client, index: string): Promise<void> {
  await client.indices.putSettings({ index, settings: { refresh_interval: chunkRefreshInterval() } });
}

/**
 * Restore refresh on `index` if a bulk load left it off (a writer killed before its close): without
 * this, what it indexed would stay unsearchable. A no-op for an index whose refresh is on.
 */
export async function restoreStaleRefresh(client: Client, index: string): Promise<boolean> {
  const settings = await client.indices.getSettings({ index, name: 'index.refresh_interval', flat_settings: true }, { ignore: [404] });
  const stale = Object.values(settings ?? {}).some(
    (entry) => (entry as { settings?: Record<string, unknown> }).settings?.['index.refresh_interval'] === BULK_LOAD_REFRESH,
  );
  if (stale) await restoreRefresh(client, index);
  return stale;
}
