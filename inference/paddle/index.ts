export { createPaddleEngine } from './engine.ts';
export type { PaddleEngineOptions } from './engine.ts';
export { paddleModelPaths } from './models.ts';
export type { PaddleModelPaths } from './models.ts';
export { layoutPage } from './layout.ts';
export type { Fragment, LayoutBlock, BlockLabel } from './layout.ts';
export { readingOrder } from './order.ts';
export { findUprightLines, pageGrid } from './lines.ts';
export type { FindLinesOptions, UprightLine, UprightLines } from './lines.ts';
