export type { RemoteEngineOptions } from './engine.ts';
export { createRemoteEngine, DEFAULT_OCR_PROMPT, DEFAULT_REMOTE_MODEL } from './engine.ts';
export type { HttpEngine, HttpEngineOptions, HttpEngineStats, SendPage, SentPage } from './http-engine.ts';
export { createHttpEngine, HttpStatusError } from './http-engine.ts';
export type { ReaderEngineOptions } from './reader.ts';
export { createReaderEngine } from './reader.ts';
export type { RetryPolicy } from './retry.ts';
export { backoffMs, DEFAULT_RETRY, isTransientError, isTransientStatus, retryAfterMs } from './retry.ts';
