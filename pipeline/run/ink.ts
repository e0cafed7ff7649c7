/**
 * Whether a rendered page has ink worth reading: after OCR found no text, a page with no more than
 * specks or scanner noise is blank (a book's empty verso, a separator sheet), not a failed read.
 */
import type { PageImage } from '../../inference/engine.ts';

/**
 * Share of the page's pixels that must be dark for it to count as inked: 1 in 10,000, about one
 * short word of body text at the resolutions pages are rendered for OCR (a 10 pt word at 150 dpi
 * is ~150–200 dark pixels of a letter page's 2.1 million). Dust, specks and the grain of a scan
 * stay below it; any line of text is above it.
 */
export const BLANK_INK_SHARE = 1e-4;

/** A pixel this much darker than white (0–255 luminance) is ink; paper grain and JPEG noise are not. */
const DARK = 128;

/**
 * Share of dark pixels in `image` (0–1).
 *
 * @example
 * inkShare(image) < BLANK_INK_SHARE // a blank page
 */
export function inkShare(image: Pick<PageImage, 'data' | 'width' | 'height' | 'channels'>): number {
  const { data, width, height, channels } = image;
  const pixels = width * height;
  if (pixels === 0) return 0;
  let dark = 0;
  for (let i = 0; i + channels <= data.length; i += channels) {
    // Integer luminance (ITU-R BT.601 weights); alpha, when present, is ignored: pages are opaque.
    const luminance = channels === 1 ? data[i]! : (data[i]! * 299 + data[i + 1]! * 587 + data[i + 2]! * 114) / 1000;
    if (luminance < DARK) dark++;
  }
  return dark / pixels;
}

/** True when the page has more than specks on it. */
export function hasInk(image: Pick<PageImage, 'data' | 'width' | 'height' | 'channels'>): boolean {
  return inkShare(image) >= BLANK_INK_SHARE;
}
