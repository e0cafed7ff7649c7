/** Elasticsearch request bodies for the two lists hybrid search fuses. Pure functions: easy to test. */
import { ConfigurationError } from '../core/errors.ts';
import type { QuerySyntax, SearchFilters } from './types.ts';

type Clause = Record<string, unknown>;

const list = (value: string | readonly string[]): string[] => (typeof value === 'string' ? [value] : [...value]);

/** Filter clauses for `bool.filter` and `knn.filter`; an empty array means no filter. */
export function filterClauses(filters: Readonly<SearchFilters> = {}, prefix = ''): Clause[] {
  const clauses: Clause[] = [];
  const { source, kind, pages: pageFilter, docId } = filters;
  const pages = `${prefix}pages`;
  if (source !== undefined) clauses.push({ terms: { [`${prefix}source`]: list(source) } });
  if (kind !== undefined) clauses.push({ terms: { [`${prefix}kind`]: list(kind) } });
  if (docId !== undefined) clauses.push({ terms: { [`${prefix}doc_id`]: list(docId) } });
  if (pageFilter !== undefined) {
    if (typeof pageFilter === 'number') {
      clauses.push({ term: { [pages]: pageFilter } });
    } else if (Array.isArray(pageFilter)) {
      clauses.push({ terms: { [pages]: [...pageFilter] } });
    } else {
      const { from, to } = pageFilter as { from?: number; to?: number };
      if (from === undefined && to === undefined) {
        throw new ConfigurationError('FOLIO_BAD_OPTION', 'Expected `filters.pages` range to have `from` or `to`, got neither');
      }
      clauses.push({ range: { [pages]: { ...(from !== undefined ? { gte: from } : {}), ...(to !== undefined ? { lte: to } : {}) } } });
    }
  }
  return clauses;
}

/** Fields returned with each hit; the vector stays on the server. */
export const HIT_SOURCE_FIELDS = [
  'text',
  'source',
  'doc_id',
  'parent_id',
  'title',
  'pages',
  'heading_path',
  'bboxes',
  'kind',
  'chunk_index',
  'lines',
  'quality',
  'locations',
];

export interface Bm25BodyOptions {
  readonly query: string;
  readonly size: number;
  readonly filters?: SearchFilters;
  /** @default ['text'] */
  readonly fields?: readonly string[];
  /** @default 'plain' */
  readonly syntax?: QuerySyntax;
}

/**
 * A BM25 `search` body: `multi_match` over the text fields (or `query_string` for Lucene syntax),
 * filters in `bool.filter` (no scoring).
 */
export function bm25Body(options: Readonly<Bm25BodyOptions>): Clause {
  const { query, size, filters, fields = ['text'], syntax = 'plain' } = options;
  const match = syntax === 'lucene' ? { query_string: { query, fields: [...fields] } } : { multi_match: { query, fields: [...fields] } };
  return {
    size,
    _source: HIT_SOURCE_FIELDS,
    query: { bool: { must: [match], filter: filterClauses(filters) } },
  };
}

export interface KnnBodyOptions {
  readonly vector: readonly number[] | Float32Array;
  readonly size: number;
  readonly numCandidates: number;
  readonly filters?: SearchFilters;
  /** @default 'vector' */
  readonly field?: string;
}

/** An approximate kNN `search` body; filters run inside the HNSW search so k hits still come back. */
export function knnBody(options: Readonly<KnnBodyOptions>): Clause {
  const { vector, size, numCandidates, filters, field = 'vector' } = options;
  const filter = filterClauses(filters);
  return {
    size,
    _source: HIT_SOURCE_FIELDS,
    knn: { field, query_vector: Array.from(vector), k: size, num_candidates: Math.max(numCandidates, size), ...(filter.length > 0 ? { filter } : {}) },
  };
}

/**
 * The two bodies for an index whose chunks sit in a `nested` field of each document (what the
 * Elasticsearch plugin writes, `mappings/ingested.json`): the queries run inside the nested
 * path and the matching chunks come back as `inner_hits`, named `chunks`.
 */
export function nestedBm25Body(options: Readonly<Bm25BodyOptions & { path: string }>): Clause {
  const { query, size, filters, fields = ['text'], path } = options;
  return {
    size,
    _source: false,
    query: {
      nested: {
        path,
        score_mode: 'max',
        query: { bool: { must: [{ multi_match: { query, fields: fields.map((f) => `${path}.${f}`) } }], filter: filterClauses(filters, `${path}.`) } },
        inner_hits: { name: 'chunks', size: 3, _source: HIT_SOURCE_FIELDS.map((f) => `${path}.${f}`) },
      },
    },
  };
}

export function nestedKnnBody(options: Readonly<KnnBodyOptions & { path: string }>): Clause {
  const { vector, size, numCandidates, filters, path } = options;
  const filter = filterClauses(filters, `${path}.`);
  return {
    size,
    _source: false,
    knn: {
      field: `${path}.vector`,
      query_vector: Array.from(vector),
      k: size,
      num_candidates: Math.max(numCandidates, size),
      // Filters on the nested chunk fields apply to the chunks themselves (not their parents).
      ...(filter.length > 0 ? { filter } : {}),
      inner_hits: { name: 'chunks', size: 3, _source: HIT_SOURCE_FIELDS.map((f) => `${path}.${f}`) },
    },
  };
}
