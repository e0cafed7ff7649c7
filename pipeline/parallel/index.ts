/**
 * Document-level parallelism: `processDocument` on a small pool of worker threads, so parsing
 * one PDF does not wait for layout and chunking of the last. Options are data only (an OCR
 * engine by name), because they cross to the workers.
 *
 * @example
 * for await (const item of processInParallel(sourcesFrom(['docs/']), { engine: 'text', workers: 2 })) {
 *   if (!isSourceFailure(item)) console.log(item.doc.uri, item.pages.length);
 * }
 */
export { processInParallel, isSourceFailure } from './process-in-parallel.ts';
export type { SourceFailure } from './process-in-parallel.ts';
export { resolveParallelOptions } from './options.ts';
export type { ParallelOptions, WorkerProcessOptions } from './options.ts';
