/**
 * Indices of documents ingested through the Elasticsearch plugin's `folio` processor: an index
 * template (`ingested.json`: Markdown as text, chunks nested with their vectors, metadata as
 * keywords) and the ingest pipeline that fills it, with a dead-letter index for documents that
 * fail. `folio search --nested folio.chunks` and `FolioRetriever({ nested })` search such indices.
 */
import type { Client, estypes } from '@elastic/elasticsearch';
import { ConfigurationError } from '../core/errors.ts';
import { DEFAULT_DIMS } from './definitions.ts';
import ingestedJson from './ingested.json' with { type: 'json' };

/** Where the processor writes (its `target_field` default) and so where chunks are nested. */
export const INGESTED_TARGET = 'folio';
/** The nested chunks path searches use. */
export const INGESTED_CHUNKS_PATH = `${INGESTED_TARGET}.chunks`;
/** Where an e-mail's attachments' chunks are nested (each attachment an object of `attachments`). */
export const INGESTED_ATTACHMENT_CHUNKS_PATH = `${INGESTED_TARGET}.attachments.chunks`;

/** The template's body (settings + mappings), vectors of `dims` dimensions. */
export function ingestedTemplateBody(dims: number = DEFAULT_DIMS): estypes.IndicesIndexTemplateSummary {
  // The JSON is a whole `PUT _index_template` body (patterns, priority, _meta); this is its `template`.
  const { template } = structuredClone(ingestedJson) as unknown as { template: estypes.IndicesIndexTemplateSummary };
  const folio = template.mappings!.properties![INGESTED_TARGET] as estypes.MappingObjectProperty;
  const attachments = folio.properties!['attachments'] as estypes.MappingObjectProperty;
  // The message's chunks and its attachments' chunks: one mapping, one vector size.
  for (const owner of [folio, attachments]) {
    const chunks = owner.properties!['chunks'] as estypes.MappingNestedProperty;
    (chunks.properties!['vector'] as estypes.MappingDenseVectorProperty).dims = dims;
  }
  return template;
}

export interface FolioPipelineOptions {
  /** The field holding the document's bytes in base64. @default 'data' */
  readonly field?: string;
  /** folio serve URLs; none: the nodes' `folio.servers` setting. */
  readonly servers?: readonly string[];
  /** Index the failed documents go to, with the reason under `folio_failure`. */
  readonly deadLetterIndex: string;
  /** @default true */
  readonly embed?: boolean;
  /** The `folio` processor's other options (`engine`, `timeout`, `max_bytes`, `properties`, …). */
  readonly processor?: Readonly<Record<string, unknown>>;
}

/**
 * An ingest pipeline body: the `folio` processor, and `on_failure` sending the document (with its
 * binary, so `folio replay` can send it again) to the dead-letter index with the reason.
 *
 * @example
 * await client.ingest.putPipeline({ id: 'docs', ...folioPipeline({ servers: ['http://gpu:8000'], deadLetterIndex: 'docs-failed' }) })
 */
export function folioPipeline(options: Readonly<FolioPipelineOptions>): { description: string; processors: Record<string, unknown>[] } {
  const { field = 'data', servers, deadLetterIndex, embed = true, processor = {} } = options;
  return {
    description: 'Folio: documents to Markdown, elements and chunks (with vectors); failures to a dead-letter index',
    processors: [
      {
        folio: {
          field,
          ...(servers === undefined ? {} : { server: [...servers] }),
          embed,
          ...processor,
          on_failure: [{ folio_failed: { index: deadLetterIndex } }],
        },
      },
    ],
  };
}

export interface InstallIngestedOptions {
  /** Template name. */
  readonly name: string;
  /** Index patterns it applies to, e.g. `['docs', 'docs-*']`. */
  readonly indexPatterns: readonly string[];
  /** @default 384 */
  readonly dims?: number;
  /** Pipeline to run on every write to those indices (`index.default_pipeline`). */
  readonly defaultPipeline?: string;
  /** @default 0 */
  readonly replicas?: number;
  /** @default 1 */
  readonly shards?: number;
}

/**
 * Put the index template for plugin-ingested documents.
 *
 * @example
 * await installIngestedTemplate(client, { name: 'docs', indexPatterns: ['docs'], defaultPipeline: 'docs' })
 */
export async function installIngestedTemplate(client: Client, options: Readonly<InstallIngestedOptions>): Promise<void> {
  const { name, indexPatterns, dims = DEFAULT_DIMS, defaultPipeline, replicas = 0, shards = 1 } = options;
  if (indexPatterns.length === 0) throw new ConfigurationError('FOLIO_ES_BAD_OPTION', 'Expected `indexPatterns` to name at least one pattern, got none');
  const template = ingestedTemplateBody(dims);
  const settings = {
    ...template.settings,
    number_of_shards: shards,
    number_of_replicas: replicas,
    ...(defaultPipeline === undefined ? {} : { default_pipeline: defaultPipeline }),
  };
  await client.indices.putIndexTemplate({
    name,
    index_patterns: [...indexPatterns],
    priority: 200,
    template: { ...template, settings },
    _meta: { folio: { role: 'ingested' } },
  });
}
