/**
 * The index bodies, filled in with run-time values. The JSON files are the source of truth (they
 * can be read, diffed and used with curl); this module only clones them and sets the vector size.
 */
import type { estypes } from '@elastic/elasticsearch';
import chunksJson from './chunks.json' with { type: 'json' };
import documentsJson from './documents.json' with { type: 'json' };
import failuresJson from './failures.json' with { type: 'json' };

/** Bumped whenever a JSON body changes, so installs know to update an existing template/mapping. */
export const MAPPING_VERSION = 1;

/** @default names of the three indices. */
export const DEFAULT_CHUNKS_INDEX = 'folio-chunks';
export const DEFAULT_DOCUMENTS_INDEX = 'folio-documents';
export const DEFAULT_FAILURES_INDEX = 'folio-failures';
/** The vector size when no embedding model says otherwise (all-MiniLM-L6-v2, bge-small, e5-small). */
export const DEFAULT_DIMS = 384;

export type IndexRole = 'chunks' | 'documents' | 'failures';

/** Settings and mappings for one index, as the create-index API takes them. */
export interface IndexBody {
  readonly settings: estypes.IndicesIndexSettings;
  readonly mappings: estypes.MappingTypeMapping & { properties: Record<string, estypes.MappingProperty> };
}

/**
 * A fresh copy of the body for `role`; for chunks the vector gets `dims` dimensions.
 *
 * @example
 * const { mappings } = indexBody('chunks', 768)
 */
export function indexBody(role: IndexRole, dims: number = DEFAULT_DIMS): IndexBody {
  const source = role === 'chunks' ? chunksJson : role === 'documents' ? documentsJson : failuresJson;
  const body = structuredClone(source) as unknown as IndexBody;
  if (role === 'chunks') {
    (body.mappings.properties['vector'] as estypes.MappingDenseVectorProperty).dims = dims;
  }
  return body;
}
