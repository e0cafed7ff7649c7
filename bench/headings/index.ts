export type { HeadingDocument } from './documents.ts';
export { headingDocuments } from './documents.ts';
export { ensureHeadingDocuments, HEADINGS_DIR } from './make.ts';
export { runHeadingBench } from './run.ts';
export type { HeadingScore } from './score.ts';
export { scoreHeadings } from './score.ts';
