/**
 * `folio serve`: the HTTP server in front of Folio's engines and pipeline (`POST /v1/convert`,
 * the OpenAI-compatible OCR route, `/openapi.json`), with its token auth, bounded queues,
 * guarded URL fetching and JSON logs.
 */

// First: on a Node older than the package supports, this fails at once naming both versions.
import '../core/require-node.ts';

export type { BatcherOptions } from './batcher.ts';
export { Batcher } from './batcher.ts';
export type { ConvertEmbedder, ConvertRoute, ConvertRouteOptions } from './convert.ts';
export { createConvertRoute } from './convert.ts';
export type { ConvertResponse } from './convert-response.ts';
export type { FetchedDocument, FetchGuardOptions } from './fetch-guard.ts';
export { guardedFetch, isBlockedAddress } from './fetch-guard.ts';
export { HttpError } from './http-error.ts';
export type { IdleEngineOptions } from './idle-engine.ts';
export { idleReleasingEngine } from './idle-engine.ts';
export type { LogFields, Logger } from './log.ts';
export { jsonLogger, silentLogger } from './log.ts';
export type { OcrServer, OcrServerOptions } from './server.ts';
export { startOcrServer } from './server.ts';
