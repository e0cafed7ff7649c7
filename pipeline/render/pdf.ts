/**
 * Render one PDF page to RGB pixels with PDFium, the same WebAssembly build that reads the text
 * layer: no second PDF engine and no native canvas. PDFium draws into a BGRx bitmap in its own
 * memory; the pixels are copied out as RGB and the bitmap freed before the call returns.
 */
import { ConfigurationError, SourceError } from '../../core/errors.ts';
import type { PageImage } from '../../inference/engine.ts';
import type { PdfiumPage, PdfPage } from '../pdf/index.ts';
import { chooseDpi, DEFAULT_MAX_PIXELS } from './limits.ts';

/** `FPDF_ANNOT`: draw annotations' appearance streams too (stamps, filled-in forms), as viewers do. */
const FPDF_ANNOT = 0x01;

/** The PDFium bitmap calls used here (see `public/fpdfview.h`). */
interface BitmapExports {
  FPDFBitmap_Create(width: number, height: number, alpha: number): number;
  FPDFBitmap_FillRect(bitmap: number, left: number, top: number, width: number, height: number, color: number): number;
  FPDFBitmap_GetBuffer(bitmap: number): number;
  FPDFBitmap_GetStride(bitmap: number): number;
  FPDFBitmap_Destroy(bitmap: number): void;
  FPDF_RenderPageBitmap(bitmap: number, page: number, x: number, y: number, width: number, height: number, rotate: number, flags: number): void;
}

export interface RenderPdfPageOptions {
  /** Names the document in errors. */
  readonly source: string;
  readonly docId: string;
  /** 1-based; copied into the image and errors. */
  readonly pageNumber: number;
  /**
   * Render resolution. When omitted it is chosen from the page size: about 2200 px on the
   * longer side (200 DPI for Letter/A4), within 72–300 DPI.
   * @default chosen from the page size
   */
  readonly dpi?: number;
  /**
   * Most pixels the rendered page may have; a larger page is rendered at a lower DPI to fit
   * instead of failing (it is still worth reading).
   * @default 100_000_000
   */
  readonly maxPixels?: number;
}

type Box = readonly [number, number, number, number];

/**
 * Render a page to an RGB {@link PageImage} on a white background.
 *
 * @throws {SourceError} `FOLIO_RENDER_FAILED` (or `FOLIO_PDF_CORRUPT` when PDFium cannot load
 *   the page) naming the document and page.
 * @example
 * const image = await renderPdfPage(await pdf.page(1), { source: 'a.pdf', docId, pageNumber: 1 });
 */
export async function renderPdfPage(page: PdfPage, options: Readonly<RenderPdfPageOptions>): Promise<PageImage> {
  const [image] = renderClips(page, options, undefined);
  return image!;
}

/**
 * Render only these rectangles of a page, in points (x0, y0, x1, y1 from the top left), with the
 * page loaded once: PDFium skips the objects outside each one, so reading a page's figures does not
 * pay for rasterising and copying the whole page. Each image is its rectangle's pixels at the
 * page's scale and carries the rectangle actually drawn (clipped to the page, whole pixels) as `box`.
 *
 * @throws {SourceError} as {@link renderPdfPage}.
 * @example
 * const [figure] = await renderPdfRegions(await pdf.page(1), [[72, 40, 540, 110]], { source: 'a.pdf', docId, pageNumber: 1, dpi: 200 });
 */
export async function renderPdfRegions(
  page: PdfPage,
  boxes: readonly Box[],
  options: Readonly<RenderPdfPageOptions>,
): Promise<(PageImage & { readonly box: Box })[]> {
  return renderClips(page, options, boxes) as (PageImage & { readonly box: Box })[];
}

/** The whole page (`boxes` undefined) or each box, drawn within one load of the page. */
function renderClips(page: PdfPage, options: Readonly<RenderPdfPageOptions>, boxes: readonly Box[] | undefined): (PageImage & { readonly box?: Box })[] {
  const { source, docId, pageNumber, dpi, maxPixels = DEFAULT_MAX_PIXELS } = options ?? ({} as RenderPdfPageOptions);
  if (dpi !== undefined && (typeof dpi !== 'number' || !(dpi >= 18 && dpi <= 1200))) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`dpi\` to be a number from 18 to 1200, got \`${String(dpi)}\` (${typeof dpi})`);
  }
  if (typeof maxPixels !== 'number' || !(maxPixels >= 1)) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`maxPixels\` to be a positive number, got \`${String(maxPixels)}\` (${typeof maxPixels})`);
  }
  const where = `${source} page ${pageNumber}`;
  const meta = { source, docId, pageNumber };
  if (!(page.width > 0 && page.height > 0)) {
    throw new SourceError('FOLIO_RENDER_FAILED', `${where}: the page has no area (${page.width}×${page.height} pt)`, { meta });
  }
  let scale = (dpi ?? chooseDpi(page.width, page.height)) / 72;
  const pixels = page.width * scale * page.height * scale;
  if (pixels > maxPixels) scale *= Math.sqrt(maxPixels / pixels);
  const width = Math.max(1, Math.floor(page.width * scale));
  const height = Math.max(1, Math.floor(page.height * scale));
  const clips = boxes === undefined ? [{ x: 0, y: 0, width, height }] : boxes.map((box) => clipOf(box, scale, width, height));
  let drawn: (Uint8Array | undefined)[];
  try {
    drawn = page.read((loaded) => clips.map((clip) => draw(loaded, width, height, clip)));
  } catch (cause) {
    if (cause instanceof SourceError) throw cause;
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new SourceError('FOLIO_RENDER_FAILED', `${where}: cannot render the page (${reason})`, { cause, meta });
  }
  return clips.map((clip, i) => {
    const data = drawn[i];
    if (data === undefined)
      throw new SourceError('FOLIO_RENDER_FAILED', `${where}: PDFium cannot allocate a ${clip.width}×${clip.height} bitmap`, {
        meta: { ...meta, width: clip.width, height: clip.height },
      });
    const image = { docId, source, pageNumber, data, width: clip.width, height: clip.height, channels: 3 as const };
    if (boxes === undefined) return image;
    return { ...image, box: [clip.x / scale, clip.y / scale, (clip.x + clip.width) / scale, (clip.y + clip.height) / scale] as const };
  });
}

interface Clip {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** A rectangle in points → whole pixels of the page drawn at `scale`, inside the page, at least one pixel. */
function clipOf(box: Box, scale: number, width: number, height: number): Clip {
  const x = Math.min(width - 1, Math.max(0, Math.floor(box[0] * scale)));
  const y = Math.min(height - 1, Math.max(0, Math.floor(box[1] * scale)));
  const x1 = Math.min(width, Math.max(x + 1, Math.ceil(box[2] * scale)));
  const y1 = Math.min(height, Math.max(y + 1, Math.ceil(box[3] * scale)));
  return { x, y, width: x1 - x, height: y1 - y };
}

/**
 * The `clip` of the page drawn at `width × height`, as RGB, or undefined when PDFium has no
 * memory for the bitmap. The bitmap is the clip's size and the page is drawn shifted by the clip's
 * corner, so PDFium rasterises only what falls inside.
 */
function draw(page: PdfiumPage, pageWidth: number, pageHeight: number, clip: Clip): Uint8Array | undefined {
  const lib = page.pdfium.lib as unknown as BitmapExports;
  const { width, height } = clip;
  // No alpha: a BGRx bitmap, 4 bytes a pixel, rows `stride` bytes apart.
  const bitmap = lib.FPDFBitmap_Create(width, height, 0);
  if (bitmap === 0) return undefined;
  try {
    lib.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xffffffff);
    lib.FPDF_RenderPageBitmap(bitmap, page.handle, -clip.x, -clip.y, pageWidth, pageHeight, 0, FPDF_ANNOT);
    const stride = lib.FPDFBitmap_GetStride(bitmap);
    const base = lib.FPDFBitmap_GetBuffer(bitmap) >>> 0;
    // Read the heap after rendering: drawing may grow the wasm memory and detach older views.
    const heap = page.pdfium.heap.u8;
    const out = new Uint8Array(width * height * 3);
    for (let y = 0, j = 0; y < height; y++) {
      for (let i = base + y * stride, end = i + width * 4; i < end; i += 4, j += 3) {
        out[j] = heap[i + 2]!;
        out[j + 1] = heap[i + 1]!;
        out[j + 2] = heap[i]!;
      }
    }
    return out;
  } finally {
    lib.FPDFBitmap_Destroy(bitmap);
  }
}
