/**
 * Render one PDF page to RGB pixels with pdfjs and @napi-rs/canvas. The renderer takes a pdfjs
 * page proxy, so it does not care how the document was opened (see `pipeline/pdf`).
 */
import { createRequire } from 'node:module';
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { ConfigurationError, SourceError } from '../../core/errors.ts';
import type { PageImage } from '../../inference/engine.ts';
import { chooseDpi, DEFAULT_MAX_PIXELS } from './limits.ts';

type CreateCanvas = typeof import('@napi-rs/canvas').createCanvas;
let createCanvasFn: CreateCanvas | undefined;

/**
 * The canvas must come from the same @napi-rs/canvas build pdfjs polyfills `Path2D` from (it
 * ships its own nested copy); a canvas of another version rejects pdfjs' paths in `clip()`.
 */
function pdfjsCanvas(): CreateCanvas {
  if (createCanvasFn === undefined) {
    const fromPdfjs = createRequire(createRequire(import.meta.url).resolve('pdfjs-dist/legacy/build/pdf.mjs'));
    createCanvasFn = (fromPdfjs('@napi-rs/canvas') as typeof import('@napi-rs/canvas')).createCanvas;
  }
  return createCanvasFn;
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

/**
 * Render a page to an RGB {@link PageImage} on a white background.
 *
 * @throws {SourceError} `FOLIO_RENDER_FAILED` naming the document and page when pdfjs fails.
 * @example
 * const image = await renderPdfPage(await pdf.page(1), { source: 'a.pdf', docId, pageNumber: 1 });
 */
export async function renderPdfPage(page: PDFPageProxy, options: Readonly<RenderPdfPageOptions>): Promise<PageImage> {
  const { source, docId, pageNumber, dpi, maxPixels = DEFAULT_MAX_PIXELS } = options ?? ({} as RenderPdfPageOptions);
  if (dpi !== undefined && (typeof dpi !== 'number' || !(dpi >= 18 && dpi <= 1200))) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`dpi\` to be a number from 18 to 1200, got \`${String(dpi)}\` (${typeof dpi})`);
  }
  if (typeof maxPixels !== 'number' || !(maxPixels >= 1)) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`maxPixels\` to be a positive number, got \`${String(maxPixels)}\` (${typeof maxPixels})`);
  }
  const where = `${source} page ${pageNumber}`;
  const meta = { source, docId, pageNumber };
  try {
    // The unscaled viewport includes the page's /Rotate, so width and height are as displayed.
    const base = page.getViewport({ scale: 1 });
    if (!(base.width > 0 && base.height > 0)) {
      throw new SourceError('FOLIO_RENDER_FAILED', `${where}: the page has no area (${base.width}×${base.height} pt)`, { meta });
    }
    let scale = (dpi ?? chooseDpi(base.width, base.height)) / 72;
    const pixels = base.width * scale * base.height * scale;
    if (pixels > maxPixels) scale *= Math.sqrt(maxPixels / pixels);
    const viewport = page.getViewport({ scale });
    const width = Math.max(1, Math.floor(viewport.width));
    const height = Math.max(1, Math.floor(viewport.height));
    const canvas = pdfjsCanvas()(width, height);
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    const task = page.render({ canvas: canvas as never, canvasContext: context as never, viewport, background: '#ffffff' });
    await task.promise;
    const rgba = context.getImageData(0, 0, width, height).data;
    const data = new Uint8Array(width * height * 3);
    for (let i = 0, j = 0; j < data.length; i += 4, j += 3) {
      data[j] = rgba[i]!; data[j + 1] = rgba[i + 1]!; data[j + 2] = rgba[i + 2]!;
    }
    // Free the canvas backing store now rather than whenever the GC finds it.
    canvas.width = 1;
    canvas.height = 1;
    return { docId, source, pageNumber, data, width, height, channels: 3 };
  } catch (cause) {
    if (cause instanceof SourceError || cause instanceof ConfigurationError) throw cause;
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new SourceError('FOLIO_RENDER_FAILED', `${where}: cannot render the page (${reason})`, { cause, meta });
  } finally {
    // Drop pdfjs' per-page caches (decoded images, operator lists); the proxy stays usable.
    page.cleanup();
  }
}
