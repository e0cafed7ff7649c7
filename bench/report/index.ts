export { collectResults } from './collect.ts';
export type { CollectedResults } from './collect.ts';
export { decodeSpeedups, headlineFigures } from './figures.ts';
export type { Figure } from './figures.ts';
export { writeReport } from './write.ts';
export type { WriteReportOptions } from './write.ts';
export { ALL_USAGE, allCli } from './cli.ts';
