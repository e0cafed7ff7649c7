/**
 * One page of a source as a PNG for the viewer, rendered on demand with the pipeline's own
 * renderers (PDFium for PDFs, sharp for scans) and kept in a byte-bounded cache: a reader flips
 * back and forth between the same few pages.
 */

import { Lru } from '../../core/lru.ts';
import type { SourceDocument } from '../../core/types.ts';
import type { PageImage } from '../../inference/engine.ts';
import { openPdf } from '../../pipeline/pdf/index.ts';
import { loadImagePages, renderPdfPage } from '../../pipeline/render/index.ts';
import { HttpError } from '../http-error.ts';

export interface PageImagesOptions {
  /** Resolution PDF pages are drawn at: sharp on a laptop screen, small enough to send fast. @default 110 */
  readonly dpi?: number;
  /** Longest side of an image page sent to the browser, in pixels. @default 1600 */
  readonly maxSide?: number;
  /** Bytes of PNG kept. @default 64 MiB */
  readonly cacheBytes?: number;
}

export class PageImages {
  readonly #dpi: number;
  readonly #maxSide: number;
  readonly #cache: Lru<Promise<Buffer>>;

  constructor(options: Readonly<PageImagesOptions> = {}) {
    const { dpi = 110, maxSide = 1600, cacheBytes = 64 * 1024 * 1024 } = options;
    this.#dpi = dpi;
    this.#maxSide = maxSide;
    this.#cache = new Lru({ maxEntries: 256, maxSize: cacheBytes });
  }

  /** The PNG of page `pageNumber`; a 404 for a page the document does not have. */
  async png(doc: SourceDocument, pageNumber: number): Promise<Buffer> {
    const key = `${doc.contentHash}:${pageNumber}`;
    const cached = this.#cache.get(key);
    if (cached) return cached;
    const rendering = this.#render(doc, pageNumber);
    // Held while it renders so a second request waits for the same work; sized once known.
    this.#cache.set(key, rendering);
    try {
      const png = await rendering;
      this.#cache.set(key, rendering, png.byteLength);
      return png;
    } catch (error) {
      this.#cache.delete(key);
      throw error;
    }
  }

  async #render(doc: SourceDocument, pageNumber: number): Promise<Buffer> {
    const sharp = (await import('sharp')).default;
    const image = await this.#pixels(doc, pageNumber);
    let pipeline = sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength), {
      raw: { width: image.width, height: image.height, channels: image.channels },
    });
    if (Math.max(image.width, image.height) > this.#maxSide) pipeline = pipeline.resize({ width: this.#maxSide, height: this.#maxSide, fit: 'inside' });
    return pipeline.png({ compressionLevel: 6 }).toBuffer();
  }

  async #pixels(doc: SourceDocument, pageNumber: number): Promise<PageImage> {
    const name = doc.relativePath;
    if (doc.mime === 'application/pdf') {
      const pdf = await openPdf(doc.bytes, { source: doc.uri });
      try {
        if (pageNumber > pdf.numPages)
          throw new HttpError(404, 'not_found', `${name} has ${pdf.numPages} page${pdf.numPages === 1 ? '' : 's'}; there is no page ${pageNumber}`);
        return await renderPdfPage(await pdf.page(pageNumber), { source: doc.uri, docId: doc.id, pageNumber, dpi: this.#dpi });
      } finally {
        await pdf.close();
      }
    }
    if (doc.mime.startsWith('image/')) {
      const pages = await loadImagePages(doc.bytes, { source: doc.uri, docId: doc.id });
      const page = pages.find((p) => p.pageNumber === pageNumber);
      if (!page) throw new HttpError(404, 'not_found', `${name} has ${pages.length} page${pages.length === 1 ? '' : 's'}; there is no page ${pageNumber}`);
      return page;
    }
    throw new HttpError(404, 'not_found', `${name} is ${doc.mime}: it has no page image, only its text`);
  }
}
