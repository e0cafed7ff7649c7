export type { ImageCoverage } from './coverage.ts';
export { imageCoverage } from './coverage.ts';
export type { RoutePageOptions, TextLayerVerdict } from './route.ts';
export { routePage } from './route.ts';
