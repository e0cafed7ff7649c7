/**
 * From an OCR engine's layout frame back to the image as given: the deskewed, upright page an
 * engine lays its lines out in (`OcrImageFrame`) turned back by its skew, then by its rotation,
 * and scaled onto the 0–999 grid the grounding boxes use. Plain arithmetic on a plain record, so
 * the engine that made the frame and the layout stage that maps its boxes need share no code
 * but this.
 */
import type { OcrImageFrame } from './types.ts';

/** An axis-aligned box `[x1, y1, x2, y2]`. */
export type FrameBox = readonly [number, number, number, number];

/** Maps a box of one frame onto another. */
export type BoxMapper = (box: FrameBox) => FrameBox;

/** Size of the upright page: the image as given, turned by `rotation`. */
export function uprightSize(frame: OcrImageFrame): { width: number; height: number } {
  const sideways = frame.rotation === 90 || frame.rotation === 270;
  return sideways ? { width: frame.imageHeight, height: frame.imageWidth } : { width: frame.imageWidth, height: frame.imageHeight };
}

/**
 * A box of the frame onto the 0–999 grid of the image as given.
 *
 * @example
 * const toGrid = imageGrid({ rotation: 90, skew: 0.01, imageWidth: 1700, imageHeight: 2200 });
 * toGrid([100, 40, 900, 70]); // [x1, y1, x2, y2] on the image's grid
 */
export function imageGrid(frame: OcrImageFrame): BoxMapper {
  const { width, height } = uprightSize(frame);
  const gx = (v: number): number => Math.round(Math.min(999, Math.max(0, (v / frame.imageWidth) * 999)));
  const gy = (v: number): number => Math.round(Math.min(999, Math.max(0, (v / frame.imageHeight) * 999)));
  return (box) => {
    const [x1, y1, x2, y2] = unrotateBounds(reskewBounds(box, frame.skew, width, height), frame.rotation, frame.imageWidth, frame.imageHeight);
    return [gx(x1), gy(y1), gx(x2), gy(y2)];
  };
}

/** Bounds in the frame deskewed by `skew` (about the centre of a `width × height` page) back to bounds on the page as it was. */
export function reskewBounds(box: FrameBox, skew: number, width: number, height: number): [number, number, number, number] {
  const [x1, y1, x2, y2] = box;
  if (skew === 0) return [x1, y1, x2, y2];
  const ox = width / 2;
  const oy = height / 2;
  const c = Math.cos(skew);
  const s = Math.sin(skew);
  const turn = (x: number, y: number): [number, number] => [ox + (x - ox) * c - (y - oy) * s, oy + (x - ox) * s + (y - oy) * c];
  const corners = [turn(x1, y1), turn(x2, y1), turn(x1, y2), turn(x2, y2)];
  return [
    Math.min(...corners.map((p) => p[0])),
    Math.min(...corners.map((p) => p[1])),
    Math.max(...corners.map((p) => p[0])),
    Math.max(...corners.map((p) => p[1])),
  ];
}

/**
 * An axis-aligned box of the upright image back onto the image as given, which was turned
 * clockwise by `degrees` to make it upright (`width`×`height` are the given image's).
 */
export function unrotateBounds(box: FrameBox, degrees: OcrImageFrame['rotation'], width: number, height: number): [number, number, number, number] {
  const [x1, y1, x2, y2] = box;
  switch (degrees) {
    case 0:
      return [x1, y1, x2, y2];
    // Upright (u, v) came from given (x, y) by u = H - 1 - y, v = x.
    case 90:
      return [y1, height - x2, y2, height - x1];
    case 180:
      return [width - x2, height - y2, width - x1, height - y1];
    // u = y, v = W - 1 - x.
    case 270:
      return [width - y2, x1, width - y1, x2];
  }
}
