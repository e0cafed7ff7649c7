export { main } from './main.ts';
export { formatSummary } from './summary.ts';
