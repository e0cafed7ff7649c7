export type { ChunkDocument, DocumentRecord, FailureDocument } from './documents.ts';
export { chunkToDocument, documentRecord, documentRecordId, failureId, failureToDocument } from './documents.ts';
export type { EsSinkOptions } from './es-options.ts';
export { createEsSink } from './load-es-sink.ts';
export type { NdjsonSinkOptions } from './ndjson-sink.ts';
export { createNdjsonSink, NDJSON_FILES } from './ndjson-sink.ts';
export type { DocumentMark, Sink, SinkStats } from './types.ts';
