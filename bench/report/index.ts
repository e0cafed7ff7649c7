export { ALL_USAGE, allCli } from './cli.ts';
export type { CollectedResults } from './collect.ts';
export { collectResults } from './collect.ts';
export type { Figure } from './figures.ts';
export { decodeSpeedups, headlineFigures } from './figures.ts';
export type { WriteReportOptions } from './write.ts';
export { writeReport } from './write.ts';
