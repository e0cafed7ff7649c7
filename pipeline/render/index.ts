export type { LoadImagePagesOptions } from './image.ts';
export { imageSize, loadImagePages, MIN_IMAGE_SIDE } from './image.ts';
export { chooseDpi, DEFAULT_MAX_PIXELS, MAX_OCR_SIDE } from './limits.ts';
export type { RenderPdfPageOptions } from './pdf.ts';
export { renderPdfPage, renderPdfRegions } from './pdf.ts';
