export { CACHE_DIR } from './cache.ts';
export { folioEngine } from './folio.ts';
export { pdftotextEngine } from './pdftotext.ts';
export { pymupdf4llmEngine } from './pymupdf4llm.ts';
export type { TabulaMode } from './tabula.ts';
export { TABULA_MODES, tabulaEngine, tabulaJsonToHtml } from './tabula.ts';
export { tesseractEngine } from './tesseract.ts';
