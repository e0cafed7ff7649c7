export { routePage } from './route.ts';
export type { RoutePageOptions, TextLayerVerdict } from './route.ts';
export { imageCoverage } from './coverage.ts';
export type { ImageCoverage } from './coverage.ts';
