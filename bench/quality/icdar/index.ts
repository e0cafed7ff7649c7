export { normalizeCellText, overlap, relationCount, relations } from './grid.ts';
export type { Grid, GridCell, Relation } from './grid.ts';
export { parseStructure, readStructure } from './truth.ts';
export { cleanPipeCell, layoutHtmlTable, predictedTables } from './predicted.ts';
export { documentCounts, microAverage, scoreCounts } from './metric.ts';
export type { RelationCounts, RelationScore } from './metric.ts';
