/** Index documents (snake_case) to {@link SearchHit}s (camelCase), tolerant of absent fields. */
import type { BBox } from '../core/types.ts';
import type { SearchHit } from './types.ts';

export interface RawHit {
  readonly _id?: string;
  readonly _score?: number | null;
  readonly _source?: unknown;
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : value === undefined || value === null ? [] : [String(value)]);
const numbers = (value: unknown): number[] => (Array.isArray(value) ? value.map(Number) : typeof value === 'number' ? [value] : []);

function locations(value: unknown): { sheet?: string; range?: string; slide?: number }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    const e = entry as { sheet?: unknown; range?: unknown; slide?: unknown };
    const out = {
      ...(typeof e?.sheet === 'string' ? { sheet: e.sheet } : {}),
      ...(typeof e?.range === 'string' ? { range: e.range } : {}),
      ...(typeof e?.slide === 'number' ? { slide: e.slide } : {}),
    };
    return Object.keys(out).length > 0 ? [out] : [];
  });
}

function bboxes(value: unknown): { page: number; bbox: BBox }[] {
  if (!Array.isArray(value)) return [];
  const out: { page: number; bbox: BBox }[] = [];
  for (const entry of value) {
    const e = entry as { page?: unknown; bbox?: unknown };
    if (typeof e?.page === 'number' && Array.isArray(e.bbox) && e.bbox.length === 4) {
      out.push({ page: e.page, bbox: e.bbox.map(Number) as unknown as BBox });
    }
  }
  return out;
}

/** Maps one Elasticsearch hit; `ranks` says which list it came from. */
export function toSearchHit(hit: RawHit, ranks: SearchHit['ranks'] = {}, score?: number): SearchHit {
  const s = (hit._source ?? {}) as Record<string, unknown>;
  const quality = s['quality'];
  const lines = s['lines'] as { from?: unknown; to?: unknown } | undefined;
  const where = locations(s['locations']);
  const qualityScore =
    typeof quality === 'number' ? quality : typeof (quality as { score?: unknown })?.score === 'number' ? (quality as { score: number }).score : undefined;
  return {
    id: String(hit._id ?? ''),
    score: score ?? hit._score ?? 0,
    text: typeof s['text'] === 'string' ? s['text'] : '',
    source: typeof s['source'] === 'string' ? s['source'] : '',
    docId: typeof s['doc_id'] === 'string' ? s['doc_id'] : '',
    ...(typeof s['parent_id'] === 'string' ? { parentId: s['parent_id'] } : {}),
    ...(typeof s['title'] === 'string' ? { title: s['title'] } : {}),
    pages: numbers(s['pages']),
    headingPath: strings(s['heading_path']),
    bboxes: bboxes(s['bboxes']),
    kind: strings(s['kind']),
    ...(typeof s['chunk_index'] === 'number' ? { chunkIndex: s['chunk_index'] } : {}),
    ...(lines && typeof lines.from === 'number' && typeof lines.to === 'number' ? { lines: { from: lines.from, to: lines.to } } : {}),
    ...(qualityScore !== undefined ? { quality: qualityScore } : {}),
    ...(where.length > 0 ? { locations: where } : {}),
    ranks,
  };
}

interface NestedHit extends RawHit {
  readonly _nested?: { readonly offset?: number };
}

/**
 * The chunks of a document hit from a nested query (`inner_hits.chunks`), best first, as chunk
 * hits: ids are the chunk's own `id` when stored, else `<document _id>#<offset>`.
 */
export function innerChunkHits(hit: RawHit & { inner_hits?: unknown }): RawHit[] {
  const inner = (hit.inner_hits as { chunks?: { hits?: { hits?: NestedHit[] } } } | undefined)?.chunks?.hits?.hits ?? [];
  return inner.map((chunk) => {
    const source = (chunk._source ?? {}) as Record<string, unknown>;
    const id = typeof source['id'] === 'string' ? source['id'] : `${hit._id ?? ''}#${chunk._nested?.offset ?? 0}`;
    return { _id: id, _score: chunk._score ?? hit._score ?? 0, _source: source };
  });
}
