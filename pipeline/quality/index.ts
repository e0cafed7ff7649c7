export { checkPage } from './check.ts';
export type { CheckOptions } from './check.ts';
export { collapseRepetition, findLoops } from './repetition.ts';
export type { Loop, LoopScan, RepetitionOptions } from './repetition.ts';
