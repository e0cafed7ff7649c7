/**
 * Image inputs (PNG, JPEG, TIFF with any number of pages, WebP, anything else libvips reads)
 * decoded with sharp into RGB page images: EXIF orientation applied, transparency flattened on
 * white, oversized scans scaled down to what OCR can use, and the declared size checked
 * against a pixel limit before anything is decoded (decompression bombs).
 */
import { ConfigurationError, SourceError } from '../../core/errors.ts';
import type { PageImage } from '../../inference/engine.ts';
import { DEFAULT_MAX_PIXELS, MAX_OCR_SIDE, MIN_OCR_SIDE } from './limits.ts';

type Sharp = typeof import('sharp').default;

/** Smallest side worth reading: below it there is no text, only a broken or placeholder image. */
export const MIN_IMAGE_SIDE = 8;

export interface LoadImagePagesOptions {
  /** Names the document in errors. */
  readonly source: string;
  readonly docId: string;
  /**
   * Most pixels an image page may declare; a larger one is refused before decoding.
   * @default 100_000_000
   */
  readonly maxPixels?: number;
  /**
   * Called with the error of each page that cannot be decoded (a truncated frame of a
   * multi-page TIFF), after which the other pages are still returned. Without it, the first
   * failing page rejects the call.
   * @default undefined
   */
  readonly onPageError?: (error: SourceError) => void;
}

let sharpPromise: Promise<Sharp> | undefined;

/** sharp (libvips) is native and large: loaded on first use only. */
function loadSharp(): Promise<Sharp> {
  sharpPromise ??= import('sharp').then((m) => m.default);
  return sharpPromise;
}

/**
 * Decode every page of an image file.
 *
 * @throws {SourceError} `FOLIO_IMAGE_CORRUPT` (not a readable image), `FOLIO_IMAGE_TOO_LARGE`
 *   (over `maxPixels`), `FOLIO_IMAGE_TOO_SMALL`, `FOLIO_IMAGE_PAGE` (one page failed, without
 *   `onPageError`), each naming the source and page.
 * @example
 * const pages = await loadImagePages(bytes, { source: 'scan.tif', docId });
 */
export async function loadImagePages(bytes: Uint8Array, options: Readonly<LoadImagePagesOptions>): Promise<PageImage[]> {
  const { source, docId, maxPixels = DEFAULT_MAX_PIXELS, onPageError } = options ?? ({} as LoadImagePagesOptions);
  if (typeof source !== 'string' || source === '') {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`source\` to be a non-empty string, got \`${String(source)}\` (${typeof source})`);
  }
  if (typeof maxPixels !== 'number' || !(maxPixels >= 1)) {
    throw new ConfigurationError('FOLIO_BAD_OPTION', `Expected \`maxPixels\` to be a positive number, got \`${String(maxPixels)}\` (${typeof maxPixels})`);
  }
  if (!(bytes instanceof Uint8Array) || bytes.byteLength === 0) {
    throw new SourceError('FOLIO_EMPTY_FILE', `${source}: the file is empty (0 bytes)`, { meta: { source, docId } });
  }
  const sharp = await loadSharp();
  let pageCount: number;
  try {
    // Metadata reads the header only: sizes are checked before any pixel is decoded.
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    pageCount = Math.max(1, meta.pages ?? 1);
  } catch (cause) {
    throw new SourceError('FOLIO_IMAGE_CORRUPT', `${source}: not a readable image (${reason(cause)})`, { cause, meta: { source, docId } });
  }
  const pages: PageImage[] = [];
  for (let index = 0; index < pageCount; index++) {
    const pageNumber = index + 1;
    try {
      pages.push(await decodePage(sharp, bytes, { source, docId, pageNumber, maxPixels, pageCount }));
    } catch (cause) {
      const error =
        cause instanceof SourceError
          ? cause
          : new SourceError('FOLIO_IMAGE_PAGE', `${where(source, pageNumber, pageCount)}: cannot decode the image (${reason(cause)})`, {
              cause,
              meta: { source, docId, pageNumber },
            });
      if (onPageError === undefined) throw error;
      onPageError(error);
    }
  }
  return pages;
}

/**
 * The size an image declares in its header, nothing decoded; undefined when libvips cannot read
 * it (an EMF or WMF picture, a broken file).
 *
 * @example
 * await imageSize(png) // { width: 640, height: 120 }
 */
export async function imageSize(bytes: Uint8Array): Promise<{ width: number; height: number } | undefined> {
  const sharp = await loadSharp();
  try {
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    return meta.width === undefined || meta.height === undefined ? undefined : { width: meta.width, height: meta.height };
  } catch {
    return undefined;
  }
}

interface PageContext {
  readonly source: string;
  readonly docId: string;
  readonly pageNumber: number;
  readonly maxPixels: number;
  readonly pageCount: number;
}

async function decodePage(sharp: Sharp, bytes: Uint8Array, context: PageContext): Promise<PageImage> {
  const { source, docId, pageNumber, maxPixels, pageCount } = context;
  const at = where(source, pageNumber, pageCount);
  const meta = { source, docId, pageNumber };
  const open = (): ReturnType<Sharp> => sharp(bytes, { page: pageNumber - 1, pages: 1, limitInputPixels: maxPixels, failOn: 'error' });
  // Header only, without the limit, so an oversized page gets our message rather than libvips'.
  const info = await sharp(bytes, { page: pageNumber - 1, pages: 1, limitInputPixels: false }).metadata();
  const width = info.width ?? 0;
  const height = info.height ?? 0;
  if (width * height > maxPixels) {
    throw new SourceError(
      'FOLIO_IMAGE_TOO_LARGE',
      `${at}: the image is ${width}×${height} px (${((width * height) / 1e6).toFixed(0)} MP), more than \`maxPixels\` ${maxPixels}`,
      { meta: { ...meta, width, height, maxPixels } },
    );
  }
  if (Math.min(width, height) < MIN_IMAGE_SIDE) {
    throw new SourceError('FOLIO_IMAGE_TOO_SMALL', `${at}: the image is ${width}×${height} px, too small to hold text (at least ${MIN_IMAGE_SIDE} px a side)`, {
      meta: { ...meta, width, height },
    });
  }
  // Faxes and 72 DPI scans are scaled up (Lanczos, at most 3×): the recogniser reads lines at
  // 48 px high, and a sharp upscale here beats the bilinear one it would do per line.
  const longest = Math.max(width, height);
  const target = longest < MIN_OCR_SIDE ? Math.min(MIN_OCR_SIDE, longest * 3) : Math.min(longest, MAX_OCR_SIDE);
  const { data, info: out } = await open()
    .autoOrient()
    .resize({ width: target, height: target, fit: 'inside', kernel: 'lanczos3' })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (out.channels !== 3) {
    throw new SourceError('FOLIO_IMAGE_PAGE', `${at}: decoded to ${out.channels} channels, expected RGB`, { meta });
  }
  return { docId, source, pageNumber, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: out.width, height: out.height, channels: 3 };
}

function where(source: string, pageNumber: number, pageCount: number): string {
  return pageCount > 1 ? `${source} page ${pageNumber}` : source;
}

function reason(cause: unknown): string {
  return (cause instanceof Error ? cause.message : String(cause)).split('\n')[0]!.trim();
}
