/**
 * Size limits shared by the PDF renderer and the image loader. A page image is the biggest
 * allocation Folio makes (width × height × channels bytes), so its size is bounded up front:
 * a hostile or broken file must not take the whole run down with it.
 */

/** Largest image (in pixels) a file may declare before it is refused: a decompression bomb guard. @default 100 000 000 */
export const DEFAULT_MAX_PIXELS = 100_000_000;

/** Longest side OCR ever needs; bigger images are scaled down after decoding. */
export const MAX_OCR_SIDE = 4000;

/** Images with a shorter longest side are scaled up to it before OCR. */
export const MIN_OCR_SIDE = 1800;

/** Target longest side when choosing a render DPI: about 200 DPI for Letter and A4. */
export const TARGET_RENDER_SIDE = 2200;

/**
 * The DPI that renders a page of `widthPt × heightPt` (PDF points) at about
 * {@link TARGET_RENDER_SIDE} pixels on its longer side, kept within 72–300 DPI so tiny pages
 * are not blown up into noise and posters are not rendered at a useless size.
 */
export function chooseDpi(widthPt: number, heightPt: number): number {
  const longest = Math.max(widthPt, heightPt, 1);
  const dpi = (TARGET_RENDER_SIDE / longest) * 72;
  return Math.round(Math.min(300, Math.max(72, dpi)));
}
