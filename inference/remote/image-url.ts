import sharp from 'sharp';
import type { PageImage } from '../engine.ts';

/** A page as a PNG data URL, the form OpenAI-compatible vision servers accept in `image_url`. */
export async function pageDataUrl(page: PageImage): Promise<string> {
  const png = await sharp(page.data, { raw: { width: page.width, height: page.height, channels: page.channels } })
    .png({ compressionLevel: 3 })
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}
