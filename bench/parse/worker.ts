import { parentPort, workerData } from 'node:worker_threads';
import type { CorpusDocument } from './corpus.ts';
import { processDocuments } from './work.ts';

// One share of the documents per thread. A short untimed warm-up first (JIT), like the main thread's.
const { documents, warmup } = workerData as { documents: CorpusDocument[]; warmup: CorpusDocument[] };
processDocuments(warmup);
// This thread's CPU time (process.cpuUsage would count every thread).
const threadCpu = (): number => {
  const usage = process.threadCpuUsage();
  return (usage.user + usage.system) / 1000;
};
const cpu = threadCpu();
const start = performance.now();
const counts = processDocuments(documents);
parentPort?.postMessage({ counts, ms: performance.now() - start, cpuMs: threadCpu() - cpu });
