export type { LaunchedBrowser } from './browser.ts';
export { CHROMIUM, CHROMIUM_ARGS, ensureChromium, launchChromium } from './browser.ts';
export type { ChunkSpec } from './chunks.ts';
export { makeChunk, makeChunks } from './chunks.ts';
export type { ThrowawayIndex } from './elasticsearch.ts';
export { deleteIndices, esClient, esUrl, throwawayIndex, uniqueIndexName, withIndex } from './elasticsearch.ts';
export type { FaultAction, FaultProxy, ProxiedRequest } from './fault-proxy.ts';
export { startFaultProxy } from './fault-proxy.ts';
