export type { CorpusDocument } from './corpus.ts';
export { defaultCorpus, loadCorpus, repeatCorpus } from './corpus.ts';
export type { ParseBenchOptions, ParseBenchReport, ParseBenchRun } from './run.ts';
export { runParseBench } from './run.ts';
