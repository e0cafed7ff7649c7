export { runParseBench } from './run.ts';
export type { ParseBenchOptions, ParseBenchReport, ParseBenchRun } from './run.ts';
export { loadCorpus, repeatCorpus, defaultCorpus } from './corpus.ts';
export type { CorpusDocument } from './corpus.ts';
