/**
 * Document-level parallelism: `processDocument` on a small pool of worker threads, so parsing
 * one PDF does not wait for layout and chunking of the last. What crosses to the workers is data
 * (options, documents, results); functions stay on the calling thread: the OCR engine (`ocr`)
 * recognises the pages workers send it, and a token counter (`countTokens`) chunks what they read.
 *
 * @example
 * for await (const item of processInParallel(sourcesFrom(['docs/']), { engine: 'text', workers: 2 })) {
 *   if (!isUnreadSource(item)) console.log(item.doc.uri, item.pages.length);
 * }
 */

export type { ParallelOptions, WorkerProcessOptions } from './options.ts';
export { resolveParallelOptions } from './options.ts';
export type { UnreadSource } from './process-in-parallel.ts';
export { isUnreadSource, processInParallel } from './process-in-parallel.ts';
