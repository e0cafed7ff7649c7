export type { Grid, GridCell, Relation } from './grid.ts';
export { normalizeCellText, overlap, relationCount, relations } from './grid.ts';
export type { RelationCounts, RelationScore } from './metric.ts';
export { documentCounts, microAverage, scoreCounts } from './metric.ts';
export { cleanPipeCell, layoutHtmlTable, predictedTables } from './predicted.ts';
export { parseStructure, readStructure } from './truth.ts';
