/**
 * Install Folio's indices: for each, a composable index template (so an index recreated by hand,
 * or rolled over behind an alias, gets the same mapping) and the index itself. Idempotent: a
 * `_meta.folio` stamp on the template and mapping tells whether anything needs changing, so a
 * second run sends no writes at all.
 */
import type { Client } from '@elastic/elasticsearch';
import { ConfigurationError, describeError } from '../core/errors.ts';
import type { IndexRole } from './definitions.ts';
import { DEFAULT_CHUNKS_INDEX, DEFAULT_DIMS, DEFAULT_DOCUMENTS_INDEX, DEFAULT_FAILURES_INDEX, indexBody, MAPPING_VERSION } from './definitions.ts';
import { BULK_LOAD_REFRESH } from './refresh.ts';

export interface InstallMappingsOptions {
  /** The chunk index (or alias). @default 'folio-chunks' */
  readonly index?: string;
  /** Vector dimensions of the embedding model. @default 384 */
  readonly dims?: number;
  /** Where document sync state goes (shared by chunk indices, keyed by index). @default 'folio-documents' */
  readonly documentsIndex?: string;
  /** Where dead letters go. @default 'folio-failures' */
  readonly failuresIndex?: string;
  /**
   * Install the chunk index too. False installs only the documents and failures indices, for a
   * writer that must record failures before it knows the vector size.
   * @default true
   */
  readonly chunks?: boolean;
  /**
   * Create a missing chunk index with refresh off (`refresh_interval: -1`), for a writer that
   * fills it and then calls `restoreRefresh` (see `refresh.ts`). An existing index is left as it is.
   * @default false
   */
  readonly bulkLoad?: boolean;
}

export interface InstallResult {
  /** Templates and indices created by this call (`template:NAME` or the index name). */
  readonly created: readonly string[];
  /** Templates and mappings updated to a newer mapping version. */
  readonly updated: readonly string[];
}

/** The stamp we write into `_meta.folio`; equal stamps mean equal bodies. */
interface Stamp {
  readonly version: number;
  readonly role: IndexRole;
  readonly dims?: number;
}

const INDEX_NAME = /^[a-z0-9][a-z0-9._-]*$/;

/**
 * Create or update the chunk, documents and failures indices. A chunk index whose vector size
 * differs from `dims` is a ConfigurationError (`FOLIO_ES_DIMS_MISMATCH`): the embedding model and
 * the index disagree and nothing could be indexed.
 *
 * @example
 * await installMappings(client, { index: 'folio-chunks', dims: 384 })
 */
export async function installMappings(client: Client, options: Readonly<InstallMappingsOptions> = {}): Promise<InstallResult> {
  const {
    index = DEFAULT_CHUNKS_INDEX,
    dims = DEFAULT_DIMS,
    documentsIndex = DEFAULT_DOCUMENTS_INDEX,
    failuresIndex = DEFAULT_FAILURES_INDEX,
    chunks = true,
    bulkLoad = false,
  } = options;
  for (const [option, value] of [
    ['index', index],
    ['documentsIndex', documentsIndex],
    ['failuresIndex', failuresIndex],
  ] as const) {
    if (typeof value !== 'string' || !INDEX_NAME.test(value)) {
      throw new ConfigurationError(
        'FOLIO_ES_BAD_OPTION',
        `Expected \`${option}\` to be a lowercase index name (letters, digits, . _ -), got \`${String(value)}\` (${typeof value})`,
      );
    }
  }
  // The server caps indexed dense vectors at 4096 dimensions.
  if (!Number.isInteger(dims) || dims < 1 || dims > 4096) {
    throw new ConfigurationError('FOLIO_ES_BAD_OPTION', `Expected \`dims\` to be an integer from 1 to 4096, got \`${String(dims)}\` (${typeof dims})`);
  }
  const created: string[] = [];
  const updated: string[] = [];
  const plan: readonly [string, IndexRole][] = [
    ...(chunks ? [[index, 'chunks'] as [string, IndexRole]] : []),
    [documentsIndex, 'documents'],
    [failuresIndex, 'failures'],
  ];
  // The three are independent, and creating an index waits for its shard: do them together.
  await Promise.all(
    plan.map(async ([name, role]) => {
      const stamp: Stamp = role === 'chunks' ? { version: MAPPING_VERSION, role, dims } : { version: MAPPING_VERSION, role };
      await installTemplate(client, name, stamp, created, updated);
      await installIndex(client, name, stamp, created, updated, bulkLoad && role === 'chunks');
    }),
  );
  return { created, updated };
}

/** The template name for an index. */
export function templateName(index: string): string {
  return `${index}-template`;
}

async function installTemplate(client: Client, index: string, stamp: Stamp, created: string[], updated: string[]): Promise<void> {
  const name = templateName(index);
  const existing = await call(`read index template ${name}`, () => client.indices.getIndexTemplate({ name }, { ignore: [404] }));
  const current = existing.index_templates?.[0]?.index_template._meta?.['folio'];
  if (current !== undefined && sameStamp(current, stamp)) return;
  const body = indexBody(stamp.role, stamp.dims);
  await call(`write index template ${name}`, () =>
    client.indices.putIndexTemplate({
      name,
      index_patterns: [index],
      // Above the built-in templates (100) so a name like `logs-a-b` still gets ours.
      priority: 200,
      template: { settings: body.settings, mappings: { ...body.mappings, _meta: { folio: stamp } } },
      _meta: { folio: stamp, description: `Folio ${stamp.role} index` },
    }),
  );
  (current === undefined ? created : updated).push(`template:${name}`);
}

async function installIndex(client: Client, index: string, stamp: Stamp, created: string[], updated: string[], bulkLoad: boolean): Promise<void> {
  const exists = await call(`check index ${index}`, () => client.indices.exists({ index }));
  const body = indexBody(stamp.role, stamp.dims);
  if (!exists) {
    try {
      // Refresh off from the start: turning it off after creation would cost another cluster-state update.
      const settings = bulkLoad ? { ...body.settings, refresh_interval: BULK_LOAD_REFRESH } : body.settings;
      await client.indices.create({ index, settings, mappings: { ...body.mappings, _meta: { folio: stamp } } });
      created.push(index);
      return;
    } catch (error) {
      // Another process created it between our check and our create: check what it made.
      if (!describeError(error).includes('resource_already_exists_exception')) {
        throw new ConfigurationError('FOLIO_ES_MAPPING', `Could not create index ${index}: ${describeError(error)}`, { cause: error, meta: { index } });
      }
    }
  }
  // An alias may point at several indices: check each.
  const mappings = await call(`read mapping of ${index}`, () => client.indices.getMapping({ index }));
  for (const [concrete, { mappings: mapping }] of Object.entries(mappings)) {
    if (stamp.role === 'chunks') {
      const vector = mapping.properties?.['vector'] as { dims?: number } | undefined;
      if (vector?.dims !== undefined && vector.dims !== stamp.dims) {
        throw new ConfigurationError(
          'FOLIO_ES_DIMS_MISMATCH',
          `Index ${concrete} stores ${vector.dims}-dimensional vectors but \`dims\` is ${stamp.dims}: use the same embedding model, another --index, or delete ${concrete}`,
          { meta: { index: concrete, indexDims: vector.dims, dims: stamp.dims } },
        );
      }
    }
    const current = mapping._meta?.['folio'];
    if (current !== undefined && sameStamp(current, stamp)) continue;
    // Additive only: new fields appear; a changed field type is a conflict the user must resolve.
    await call(`update mapping of ${concrete}`, () => client.indices.putMapping({ index: concrete, ...body.mappings, _meta: { folio: stamp } }));
    updated.push(concrete);
  }
}

function sameStamp(current: unknown, stamp: Stamp): boolean {
  if (typeof current !== 'object' || current === null) return false;
  const value = current as Partial<Stamp>;
  return value.version === stamp.version && value.role === stamp.role && value.dims === stamp.dims;
}

/** Any failure while installing is a configuration problem the run cannot start with. */
async function call<T>(what: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof ConfigurationError) throw error;
    throw new ConfigurationError('FOLIO_ES_MAPPING', `Could not ${what}: ${describeError(error)}`, { cause: error });
  }
}
