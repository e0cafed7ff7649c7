/**
 * How much of a page raster images cover, from PDFium's page objects (images inside form
 * XObjects included). Areas are unioned on a coarse grid clipped to the page, as the router's
 * earlier pdfjs measure did, so a scan drawn twice or tiled into strips counts once.
 */
import type { Matrix, PdfiumPage } from '../pdf/index.ts';

export interface ImageFigures {
  /** Share of the page area (0–1) under at least one image. */
  readonly coverage: number;
  /** Images drawn on the page. */
  readonly images: number;
  /** Share of the page under the single largest image. */
  readonly largest: number;
  /**
   * The largest images' boxes on the displayed page (points, origin top-left), largest first, at
   * most {@link MAX_BOXES}: the regions that may carry words drawn as pixels (banners, logos).
   */
  readonly boxes: readonly (readonly [number, number, number, number])[];
}

/** Image boxes kept per page: a page of hundreds of icons keeps its largest. */
const MAX_BOXES = 16;

/** Grid cells per side: fine enough for figures, cheap for any page. */
const GRID = 64;
/** Page objects looked at, at most: a vector map can hold millions of paths and no image. */
const MAX_OBJECTS = 500_000;
const IMAGE = 3;
const FORM = 5;
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/**
 * Measure a page's image coverage.
 *
 * @example
 * const { coverage } = pdf.readPage(1, pageImages); // 0.97 for a scan
 */
export function pageImages(page: PdfiumPage): ImageFigures {
  const { lib, heap, scratch } = page.pdfium;
  const [vx0, vy0, vx1, vy1] = page.view;
  const pw = Math.max(1e-6, vx1 - vx0);
  const ph = Math.max(1e-6, vy1 - vy0);
  const cells = new Uint8Array(GRID * GRID);
  let images = 0;
  let largest = 0;
  let seen = 0;
  const boxes: [number, number, number, number][] = [];
  // Containers still to walk: the page (handle 0 stands for it) and form objects, each with the
  // matrix from its content space to the page.
  const stack: { form: number; matrix: Matrix }[] = [{ form: 0, matrix: IDENTITY }];
  while (stack.length > 0 && seen < MAX_OBJECTS) {
    const { form, matrix } = stack.pop() as { form: number; matrix: Matrix };
    const count = form === 0 ? lib.FPDFPage_CountObjects(page.handle) : lib.FPDFFormObj_CountObjects(form);
    for (let i = 0; i < count && seen < MAX_OBJECTS; i++, seen++) {
      const object = form === 0 ? lib.FPDFPage_GetObject(page.handle, i) : lib.FPDFFormObj_GetObject(form, i);
      const type = lib.FPDFPageObj_GetType(object);
      if (type === FORM) {
        if (lib.FPDFPageObj_GetMatrix(object, scratch)) {
          const f32 = heap.f32;
          const at = scratch >>> 2;
          const own: Matrix = [
            f32[at] as number,
            f32[at + 1] as number,
            f32[at + 2] as number,
            f32[at + 3] as number,
            f32[at + 4] as number,
            f32[at + 5] as number,
          ];
          stack.push({ form: object, matrix: multiply(own, matrix) });
        }
        continue;
      }
      if (type !== IMAGE) continue;
      if (!lib.FPDFPageObj_GetBounds(object, scratch, scratch + 4, scratch + 8, scratch + 12)) continue;
      images++;
      const f32 = heap.f32;
      const at = scratch >>> 2;
      const [left, bottom, right, top] = [f32[at] as number, f32[at + 1] as number, f32[at + 2] as number, f32[at + 3] as number];
      const [x0, y0, x1, y1] = transformBox(matrix, left, bottom, right, top);
      boxes.push(transformBox(multiply(matrix, page.toDisplay), left, bottom, right, top));
      const gx0 = cell(((x0 - vx0) / pw) * GRID);
      const gx1 = cell(((x1 - vx0) / pw) * GRID);
      const gy0 = cell(((y0 - vy0) / ph) * GRID);
      const gy1 = cell(((y1 - vy0) / ph) * GRID);
      largest = Math.max(largest, ((gx1 - gx0) * (gy1 - gy0)) / (GRID * GRID));
      for (let y = gy0; y < gy1; y++) cells.fill(1, y * GRID + gx0, y * GRID + gx1);
    }
  }
  let covered = 0;
  for (const v of cells) covered += v;
  const area = (b: readonly number[]): number => ((b[2] as number) - (b[0] as number)) * ((b[3] as number) - (b[1] as number));
  boxes.sort((a, b) => area(b) - area(a));
  return { coverage: covered / (GRID * GRID), images, largest, boxes: boxes.slice(0, MAX_BOXES) };
}

/** `m` then `n`: a point in `m`'s input space mapped through both. */
export function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[1] * n[2],
    m[0] * n[1] + m[1] * n[3],
    m[2] * n[0] + m[3] * n[2],
    m[2] * n[1] + m[3] * n[3],
    m[4] * n[0] + m[5] * n[2] + n[4],
    m[4] * n[1] + m[5] * n[3] + n[5],
  ];
}

function transformBox(m: Matrix, left: number, bottom: number, right: number, top: number): [number, number, number, number] {
  if (m === IDENTITY) return [Math.min(left, right), Math.min(bottom, top), Math.max(left, right), Math.max(bottom, top)];
  const xs = [left, right, right, left];
  const ys = [bottom, bottom, top, top];
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let k = 0; k < 4; k++) {
    const x = m[0] * (xs[k] as number) + m[2] * (ys[k] as number) + m[4];
    const y = m[1] * (xs[k] as number) + m[3] * (ys[k] as number) + m[5];
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  return [x0, y0, x1, y1];
}

function cell(v: number): number {
  return Math.min(GRID, Math.max(0, Math.round(v)));
}
