export type { CheckOptions } from './check.ts';
export { checkPage } from './check.ts';
export type { Loop, LoopScan, RepetitionOptions } from './repetition.ts';
export { collapseRepetition, findLoops } from './repetition.ts';
