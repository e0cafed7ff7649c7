/** Is there a usable cluster at a URL? Plain `fetch`, so the launcher needs no client. */

export interface ClusterHealth {
  readonly status: 'green' | 'yellow' | 'red';
  readonly unassigned_primary_shards?: number;
  readonly initializing_shards: number;
  readonly number_of_nodes: number;
}

/** The cluster's health, or undefined when nothing answers (refused, timeout, not Elasticsearch). */
export async function clusterHealth(url: string, timeoutMs = 2000): Promise<ClusterHealth | undefined> {
  try {
    const response = await fetch(new URL('/_cluster/health', url), { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return undefined;
    const body = (await response.json()) as Partial<ClusterHealth>;
    if (body.status === undefined) return undefined;
    return body as ClusterHealth;
  } catch {
    return undefined;
  }
}

/**
 * Ready means green, or yellow only for replicas: on a single node a replica can never be
 * assigned, so an index someone created with the default one replica must not block us forever.
 */
export function isReady(health: ClusterHealth | undefined): boolean {
  if (health === undefined) return false;
  if (health.status === 'green') return true;
  return health.status === 'yellow' && (health.unassigned_primary_shards ?? 0) === 0 && health.initializing_shards === 0;
}

/** The server's version number from `GET /` (which some builds answer 405; then undefined). */
export async function serverVersion(url: string): Promise<string | undefined> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { version?: { number?: string } };
    return body.version?.number;
  } catch {
    return undefined;
  }
}
