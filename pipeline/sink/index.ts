export { createEsSink } from './load-es-sink.ts';
export type { EsSinkOptions } from './es-options.ts';
export { createNdjsonSink, NDJSON_FILES } from './ndjson-sink.ts';
export type { NdjsonSinkOptions } from './ndjson-sink.ts';
export { chunkToDocument, documentRecord, documentRecordId, failureToDocument, failureId } from './documents.ts';
export type { ChunkDocument, DocumentRecord, FailureDocument } from './documents.ts';
export type { Sink, SinkStats, DocumentMark } from './types.ts';
