export type { InstallPluginIndicesOptions, ReplayItem, ReplayOptions, ReplayStats } from './dead-letters.ts';
export { installPluginIndices, replayDeadLetters } from './dead-letters.ts';
export type { IndexBody, IndexRole } from './definitions.ts';
export {
  DEFAULT_CHUNKS_INDEX,
  DEFAULT_DIMS,
  DEFAULT_DOCUMENTS_INDEX,
  DEFAULT_FAILURES_INDEX,
  indexBody,
  MAPPING_VERSION,
} from './definitions.ts';
export type { FolioPipelineOptions, InstallIngestedOptions } from './ingested.ts';
export {
  folioPipeline,
  INGESTED_ATTACHMENT_CHUNKS_PATH,
  INGESTED_CHUNKS_PATH,
  INGESTED_TARGET,
  ingestedTemplateBody,
  installIngestedTemplate,
} from './ingested.ts';
export type { InstallMappingsOptions, InstallResult } from './install.ts';
export { installMappings, templateName } from './install.ts';
export { BULK_LOAD_REFRESH, chunkRefreshInterval, restoreRefresh, restoreStaleRefresh } from './refresh.ts';
