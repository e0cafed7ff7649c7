/**
 * The web app's side of `folio serve`: its files and its JSON API (search with score parts,
 * documents with pages and boxes, page images, conversion with progress, ask with citations).
 */
export { createWebApp } from './web-app.ts';
export type { WebApp, WebAppOptions } from './web-app.ts';
export { snippet, queryTerms } from './snippet.ts';
export type { SnippetOptions } from './snippet.ts';
export type * from './api-types.ts';
