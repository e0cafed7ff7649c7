export { esUrl, esClient, uniqueIndexName, deleteIndices, throwawayIndex, withIndex } from './elasticsearch.ts';
export type { ThrowawayIndex } from './elasticsearch.ts';
export { makeChunk, makeChunks } from './chunks.ts';
export type { ChunkSpec } from './chunks.ts';
export { startFaultProxy } from './fault-proxy.ts';
export type { FaultProxy, FaultAction, ProxiedRequest } from './fault-proxy.ts';
export { CHROMIUM, CHROMIUM_ARGS, ensureChromium, launchChromium } from './browser.ts';
export type { LaunchedBrowser } from './browser.ts';
