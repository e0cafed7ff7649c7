/** One way to get an Elasticsearch client: reuse the caller's, or open one for a URL and close it after. */
import type { Client } from '@elastic/elasticsearch';
import { ConfigurationError } from '../core/errors.ts';

export interface ClientOptions {
  /** @default process.env.ELASTICSEARCH_URL */
  readonly url?: string;
  readonly client?: Client;
}

/** Runs `work` with a client; a client opened here is closed in `finally`. */
export async function withClient<T>(options: Readonly<ClientOptions>, work: (client: Client) => Promise<T>): Promise<T> {
  const { client, url = process.env['ELASTICSEARCH_URL'] } = options;
  if (client) return work(client);
  if (!url) {
    throw new ConfigurationError('FOLIO_NO_ELASTICSEARCH', 'Expected `url` (or `client`, or ELASTICSEARCH_URL) to point at Elasticsearch, got none');
  }
  const { Client: EsClient } = await import('@elastic/elasticsearch');
  const opened = new EsClient({ node: url });
  try {
    return await work(opened);
  } finally {
    await opened.close();
  }
}
