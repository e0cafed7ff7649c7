/**
 * Hybrid search: BM25 over the chunk text and kNN over the chunk vectors, run in parallel and
 * fused by reciprocal rank in Folio (the server's `rrf` retriever is not available everywhere).
 */
import { ConfigurationError, IndexingError } from '../core/errors.ts';
import type { Embedder } from '../inference/embed/index.ts';
import { createLocalEmbedder } from '../inference/embed/index.ts';
import { withClient } from './client.ts';
import type { RawHit } from './hits.ts';
import { innerChunkHits, toSearchHit } from './hits.ts';
import { bm25Body, knnBody, nestedBm25Body, nestedKnnBody } from './query.ts';
import { reciprocalRankFusion } from './rrf.ts';
import type { HybridSearchOptions, SearchHit } from './types.ts';
import { QUERY_SYNTAXES, SEARCH_MODES } from './types.ts';

/** The index name `folio ingest` writes to by default. */
export const DEFAULT_INDEX = 'folio-chunks';

function checkPositive(name: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`${name}\` to be an integer from 1 and up, got \`${String(value)}\` (${typeof value})`);
  }
}

/**
 * Searches the chunk index and returns the best `k` chunks with their provenance.
 *
 * @example
 * const hits = await hybridSearch({ url: 'http://127.0.0.1:9200', query: 'table structure recognition', k: 5, filters: { kind: 'table' } });
 * for (const hit of hits) console.log(hit.source, hit.pages, hit.headingPath.join(' > '));
 */
export async function hybridSearch(options: Readonly<HybridSearchOptions>): Promise<SearchHit[]> {
  const {
    url,
    client,
    index = DEFAULT_INDEX,
    query,
    k = 10,
    embedder,
    filters,
    mode = 'hybrid',
    rrfK = 60,
    fields,
    syntax = 'plain',
    signal,
    nested,
  } = options;
  if (typeof query !== 'string' || query.trim() === '') {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`query\` to be a non-empty string, got \`${String(query)}\``);
  }
  checkPositive('k', k);
  if (!SEARCH_MODES.includes(mode)) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`mode\` to be one of ${SEARCH_MODES.join(', ')}, got \`${String(mode)}\``);
  }
  if (!QUERY_SYNTAXES.includes(syntax)) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`syntax\` to be one of ${QUERY_SYNTAXES.join(', ')}, got \`${String(syntax)}\``);
  }
  // Hybrid fuses deeper lists than it returns: a chunk ranked 30th by both can beat one ranked 1st by one.
  const window = mode === 'hybrid' ? (options.rankWindow ?? Math.max(50, 2 * k)) : k;
  checkPositive('rankWindow', window);
  const numCandidates = options.numCandidates ?? Math.max(100, 2 * window);

  const wantsKnn = mode !== 'bm25';
  let vector: Float32Array | undefined;
  if (wantsKnn) {
    const own: Embedder | undefined = embedder ? undefined : await createLocalEmbedder();
    try {
      [vector] = await (embedder ?? own!).embed([query], { signal });
    } finally {
      await own?.close();
    }
  }

  return withClient({ url, client }, async (es) => {
    const run = async (body: Record<string, unknown>, list: 'bm25' | 'knn'): Promise<SearchHit[]> => {
      try {
        const response = await es.search({ index, ...body }, { signal });
        // A nested index answers with documents; their matching chunks are the hits.
        const hits = nested === undefined ? (response.hits.hits as RawHit[]) : (response.hits.hits as RawHit[]).flatMap(innerChunkHits);
        return hits.map((hit, i) => ({ ...toSearchHit(hit, { [list]: i + 1 }), scores: { [list]: hit._score ?? 0 } }));
      } catch (cause) {
        const reason = (cause as { meta?: { body?: { error?: { reason?: string; root_cause?: { reason?: string }[] } } } }).meta?.body?.error;
        const detail = reason?.root_cause?.[0]?.reason ?? reason?.reason ?? (cause instanceof Error ? cause.message : String(cause));
        const status = (cause as { meta?: { statusCode?: number } }).meta?.statusCode;
        throw new IndexingError('FOLIO_SEARCH', `${list} search on index \`${index}\` failed: ${detail}`, {
          cause,
          meta: { index, list, ...(status === undefined ? {} : { status }) },
        });
      }
    };
    const [bm25, knn] = await Promise.all([
      mode === 'knn'
        ? []
        : run(
            nested === undefined
              ? bm25Body({ query, size: window, filters, fields, syntax })
              : nestedBm25Body({ query, size: window, filters, fields, path: nested }),
            'bm25',
          ),
      vector
        ? run(
            nested === undefined
              ? knnBody({ vector, size: window, numCandidates, filters })
              : nestedKnnBody({ vector, size: window, numCandidates, filters, path: nested }),
            'knn',
          )
        : [],
    ]);
    if (mode === 'bm25') return bm25.slice(0, k);
    if (mode === 'knn') return knn.slice(0, k);
    const scoreOf = (list: readonly SearchHit[], rank: number | undefined): number | undefined =>
      rank === undefined ? undefined : list[rank - 1]?.scores?.[list === bm25 ? 'bm25' : 'knn'];
    return reciprocalRankFusion([bm25, knn], { k: rrfK })
      .slice(0, k)
      .map(({ item, score, ranks }) => {
        const [bm25Score, knnScore] = [scoreOf(bm25, ranks[0]), scoreOf(knn, ranks[1])];
        return {
          ...item,
          score,
          ranks: { ...(ranks[0] !== undefined ? { bm25: ranks[0] } : {}), ...(ranks[1] !== undefined ? { knn: ranks[1] } : {}) },
          scores: { ...(bm25Score !== undefined ? { bm25: bm25Score } : {}), ...(knnScore !== undefined ? { knn: knnScore } : {}) },
        };
      });
  });
}
