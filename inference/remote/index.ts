export { createRemoteEngine, DEFAULT_OCR_PROMPT, DEFAULT_REMOTE_MODEL } from './engine.ts';
export type { RemoteEngineOptions } from './engine.ts';
export { createReaderEngine } from './reader.ts';
export type { ReaderEngineOptions } from './reader.ts';
export { createHttpEngine, HttpStatusError } from './http-engine.ts';
export type { HttpEngine, HttpEngineOptions, HttpEngineStats, SendPage, SentPage } from './http-engine.ts';
export { backoffMs, retryAfterMs, isTransientError, isTransientStatus, DEFAULT_RETRY } from './retry.ts';
export type { RetryPolicy } from './retry.ts';
