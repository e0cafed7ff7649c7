/**
 * The factory's checks of a truth against the PDF's text layer: the builder's check of the tests it
 * writes (`checkedTests`) and the families' check of a whole document (`checkTruth`), on one way of
 * comparing texts (`compare.ts`), where furniture must and must not be (`furniture.ts`) and how it is
 * taken off a page's body (`page-body.ts`).
 */
export type { BodyCheck } from './body.ts';
export { joinHyphens, squash } from './compare.ts';
export { worded } from './furniture.ts';
export type { CandidateTest, GeneratedTests } from './tests.ts';
export { checkedTests } from './tests.ts';
export type { TruthCheck } from './truth.ts';
export { checkTruth } from './truth.ts';
