export { machineInfo, machineMarkdown, toolVersion } from './machine.ts';
export type { MachineInfo } from './machine.ts';
export { median, peakRssMiB, round, timeRuns } from './stats.ts';
export type { TimedRuns, TimeRunsOptions } from './stats.ts';
export { markdownTable, percent } from './markdown-table.ts';
export { hasTool, requireTool, runChild } from './tools.ts';
export type { ChildRun, RunChildOptions } from './tools.ts';
export { barChart } from './svg.ts';
export type { Bar, BarChartOptions } from './svg.ts';
