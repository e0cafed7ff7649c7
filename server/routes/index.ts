/**
 * The web app's side of `folio serve`: its files and its JSON API (search with score parts,
 * documents with pages and boxes, page images, conversion with progress, ask with citations).
 */

export type * from './api-types.ts';
export type { SnippetOptions } from './snippet.ts';
export { queryTerms, snippet } from './snippet.ts';
export type { WebApp, WebAppOptions } from './web-app.ts';
export { createWebApp } from './web-app.ts';
