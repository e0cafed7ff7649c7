/**
 * `folio serve`: the HTTP server in front of Folio's engines and pipeline (the OpenAI-compatible
 * OCR route today), with its token auth, bounded queue and JSON logs.
 */
export { startOcrServer } from './server.ts';
export type { OcrServer, OcrServerOptions } from './server.ts';
export { Batcher } from './batcher.ts';
export type { BatcherOptions } from './batcher.ts';
export { HttpError } from './http-error.ts';
export { jsonLogger, silentLogger } from './log.ts';
export type { Logger, LogFields } from './log.ts';
