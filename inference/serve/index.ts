export { startOcrServer } from './server.ts';
export type { OcrServer, OcrServerOptions } from './server.ts';
export { Batcher } from './batcher.ts';
export type { BatcherOptions } from './batcher.ts';
export { HttpError } from './http-error.ts';
export { jsonLogger, silentLogger } from './log.ts';
export type { Logger, LogFields } from './log.ts';
