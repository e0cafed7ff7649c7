/**
 * `folio serve`: the HTTP server in front of Folio's engines and pipeline (`POST /v1/convert`,
 * the OpenAI-compatible OCR route, `/openapi.json`), with its token auth, bounded queues,
 * guarded URL fetching and JSON logs.
 */
export { startOcrServer } from './server.ts';
export type { OcrServer, OcrServerOptions } from './server.ts';
export { Batcher } from './batcher.ts';
export type { BatcherOptions } from './batcher.ts';
export { HttpError } from './http-error.ts';
export { jsonLogger, silentLogger } from './log.ts';
export type { Logger, LogFields } from './log.ts';
export { createConvertRoute } from './convert.ts';
export type { ConvertEmbedder, ConvertRoute, ConvertRouteOptions } from './convert.ts';
export type { ConvertResponse } from './convert-response.ts';
export { guardedFetch, isBlockedAddress } from './fetch-guard.ts';
export type { FetchGuardOptions, FetchedDocument } from './fetch-guard.ts';
