/**
 * How much of a PDF page raster images cover, measured by PDFium from the page's objects (see
 * `pipeline/text-layer/images.ts`, which the text-layer pass runs on every page). The router
 * calls this only for an assessment that carries no coverage of its own.
 */
import type { PdfPage } from '../pdf/index.ts';
import type { ImageFigures } from '../text-layer/images.ts';
import { pageImages } from '../text-layer/images.ts';

export type ImageCoverage = ImageFigures;

/**
 * Measure image coverage of a page.
 *
 * @example
 * const { coverage } = await imageCoverage(await pdf.page(1)); // 0.97 for a scan
 */
export async function imageCoverage(page: PdfPage): Promise<ImageCoverage> {
  return page.read(pageImages);
}
