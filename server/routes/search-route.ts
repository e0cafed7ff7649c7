/**
 * `GET /api/search` and `POST /api/ask`: retrieval's hybrid search and ask, with each hit's score
 * parts (BM25 rank and score, kNN rank and similarity, RRF) and a snippet with the terms marked.
 */
import type { Client } from '@elastic/elasticsearch';
import { FolioError } from '../../core/errors.ts';
import type { Embedder } from '../../inference/embed/index.ts';
import { ask, citation, hybridSearch, type LlmOptions, QUERY_SYNTAXES, SEARCH_MODES, type SearchHit, type SearchMode } from '../../retrieval/index.ts';
import { HttpError } from '../http-error.ts';
import type { AskResponse, HitView, SearchResponse } from './api-types.ts';
import { intParam, oneOf } from './http.ts';
import { snippet } from './snippet.ts';

export interface SearchRouteOptions {
  readonly client?: Client;
  readonly index: string;
  /** Gives the query embedder (loaded on first use); absent: BM25 only. */
  readonly embedder?: () => Promise<Embedder>;
  readonly llm?: LlmOptions;
}

export interface SearchParams {
  readonly query: unknown;
  readonly mode?: unknown;
  readonly k?: unknown;
  readonly syntax?: unknown;
}

export function toHitView(hit: SearchHit, query: string): HitView {
  return {
    id: hit.id,
    docId: hit.docId,
    source: hit.source,
    ...(hit.title ? { title: hit.title } : {}),
    pages: hit.pages,
    headingPath: hit.headingPath,
    kind: hit.kind,
    score: hit.score,
    ranks: hit.ranks,
    scores: hit.scores ?? {},
    snippet: snippet(hit.text, query),
    bboxes: hit.bboxes,
    citation: citation(hit),
  };
}

export function createSearchRoute(options: Readonly<SearchRouteOptions>): {
  search(params: SearchParams): Promise<SearchResponse>;
  ask(params: SearchParams): Promise<AskResponse>;
} {
  const { client, index, embedder, llm } = options;

  async function prepare(params: SearchParams) {
    if (!client)
      throw new HttpError(503, 'no_elasticsearch', 'this server has no Elasticsearch: start folio serve with --es URL (or ELASTICSEARCH_URL) to search');
    const query = typeof params.query === 'string' ? params.query.trim() : '';
    if (!query) throw new HttpError(400, 'invalid_request_error', 'type a query to search for');
    if (query.length > 2000) throw new HttpError(400, 'invalid_request_error', `the query is ${query.length} characters; the limit is 2000`);
    const mode = oneOf<SearchMode>('mode', params.mode, SEARCH_MODES, embedder ? 'hybrid' : 'bm25');
    if (mode !== 'bm25' && !embedder)
      throw new HttpError(400, 'invalid_request_error', `\`${mode}\` search needs an embedder; this server has none (start folio serve with --embed local)`);
    const syntax = oneOf('syntax', params.syntax, QUERY_SYNTAXES, 'plain');
    const k = intParam('k', params.k, 1, 100, 10);
    return { client, index, query, mode, syntax, k, embedder: mode === 'bm25' ? undefined : await embedder!() };
  }

  return {
    async search(params) {
      const search = await prepare(params);
      const hits = await run(() => hybridSearch(search), search.query, search.syntax);
      return { query: search.query, mode: search.mode, hits: hits.map((hit) => toHitView(hit, search.query)) };
    },
    async ask(params) {
      const search = await prepare(params);
      const result = await run(() => ask({ ...search, k: intParam('k', params.k, 1, 20, 5), llm }), search.query, search.syntax);
      return {
        query: result.query,
        ...(result.answer !== undefined ? { answer: result.answer } : {}),
        context: result.context,
        hits: result.hits.map((hit) => toHitView(hit, search.query)),
      };
    },
  };
}

/** Elasticsearch's 400s (a Lucene syntax error, a missing index) become answers the user can act on. */
async function run<T>(work: () => Promise<T>, query: string, syntax: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof FolioError)) throw error;
    const status = error.meta['status'];
    const type = (error.cause as { meta?: { body?: { error?: { type?: string } } } } | undefined)?.meta?.body?.error?.type;
    if (type === 'index_not_found_exception') throw new HttpError(404, 'not_found', `${error.message}: ingest documents first (folio ingest … --index NAME)`);
    if (status === 400 && syntax === 'lucene')
      throw new HttpError(
        400,
        'query_syntax',
        `the query \`${query}\` is not valid Lucene syntax (${error.message.replace(/^.*failed: /, '')}); fix it, or turn Lucene syntax off to search for the words as typed`,
      );
    if (status === 400) throw new HttpError(400, 'invalid_request_error', error.message);
    if (error.code === 'FOLIO_LLM') throw new HttpError(502, 'llm_error', `the LLM did not answer: ${error.message}`);
    if (error.code === 'FOLIO_SEARCH') throw new HttpError(502, 'elasticsearch_error', error.message);
    throw error;
  }
}
