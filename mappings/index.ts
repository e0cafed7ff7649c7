export { installMappings, templateName } from './install.ts';
export type { InstallMappingsOptions, InstallResult } from './install.ts';
export { BULK_LOAD_REFRESH, chunkRefreshInterval, restoreRefresh, restoreStaleRefresh } from './refresh.ts';
export {
  indexBody, MAPPING_VERSION, DEFAULT_CHUNKS_INDEX, DEFAULT_DOCUMENTS_INDEX, DEFAULT_FAILURES_INDEX, DEFAULT_DIMS,
} from './definitions.ts';
export type { IndexBody, IndexRole } from './definitions.ts';
export { folioPipeline, ingestedTemplateBody, installIngestedTemplate, INGESTED_CHUNKS_PATH, INGESTED_TARGET } from './ingested.ts';
export type { FolioPipelineOptions, InstallIngestedOptions } from './ingested.ts';
