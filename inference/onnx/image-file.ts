/**
 * An image file as a {@link PageImage} (sharp decodes it): what tests, benches and `convert` of a
 * lone image need before the engine. The pixels are kept as decoded, without colour conversion,
 * so the model's own preprocessing sees what PIL would.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { SourceError } from '../../core/errors.ts';
import type { PageImage } from '../engine.ts';

export interface LoadPageImageOptions {
  readonly path: string;
  /** @default 1 */
  readonly pageNumber?: number;
}

/**
 * Decode an image file (PNG, JPEG, WebP, TIFF, …).
 *
 * @example
 * const page = await loadPageImage({ path: 'scan.png' });
 */
export async function loadPageImage(options: Readonly<LoadPageImageOptions>): Promise<PageImage> {
  const { path, pageNumber = 1 } = options;
  const { default: sharp } = await import('sharp');
  try {
    const bytes = await readFile(path);
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    if (info.channels !== 1 && info.channels !== 3 && info.channels !== 4) {
      // Grey with alpha: expand to RGBA so the engine's compositing rule applies.
      const rgba = await sharp(bytes).ensureAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
      return {
        docId: basename(path),
        source: path,
        pageNumber,
        data: new Uint8Array(rgba.data),
        width: rgba.info.width,
        height: rgba.info.height,
        channels: 4,
      };
    }
    return { docId: basename(path), source: path, pageNumber, data: new Uint8Array(data), width: info.width, height: info.height, channels: info.channels };
  } catch (cause) {
    throw new SourceError('FOLIO_IMAGE_UNREADABLE', `${path}: cannot read the image (${cause instanceof Error ? cause.message : String(cause)})`, {
      cause,
      meta: { source: path },
    });
  }
}
