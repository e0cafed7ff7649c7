/**
 * Horizontal and vertical rules drawn on a page: the straight, axis-aligned segments of its path
 * objects (lines, rectangle edges, thin filled bars), in the displayed page frame, with collinear
 * pieces merged. Ruled tables (`pipeline/layout`) are built from them.
 */

import type { PageRules, Rule } from '../layout/index.ts';
import { mergedRules } from '../layout/index.ts';
import type { Matrix, PdfiumPage } from '../pdf/index.ts';
import { multiply } from './images.ts';

/** Page objects and path segments looked at, at most: a vector map can hold millions. */
const MAX_OBJECTS = 200_000;
const MAX_SEGMENTS = 400_000;
/** How far off the axis a segment may lean, and how close collinear pieces must be to join (points). */
const SLANT = 0.5;
/** Shorter pieces are glyph-like marks or the short sides of a thin bar, not rules. */
const MIN_LENGTH = 3;
const PATH = 2;
const FORM = 5;

/**
 * The page's rules, in the same frame as its text (`page.toDisplay`).
 *
 * @example
 * const { horizontal, vertical } = pdf.readPage(1, pageRules);
 */
export function pageRules(page: PdfiumPage): PageRules {
  const { lib, heap, scratch } = page.pdfium;
  const horizontal: Rule[] = [];
  const vertical: Rule[] = [];
  let seen = 0;
  let segments = 0;
  const stack: { form: number; matrix: Matrix }[] = [{ form: 0, matrix: page.toDisplay }];
  const matrixOf = (object: number): Matrix | undefined => {
    if (!lib.FPDFPageObj_GetMatrix(object, scratch)) return undefined;
    const f32 = heap.f32;
    const at = scratch >>> 2;
    return [f32[at]!, f32[at + 1]!, f32[at + 2]!, f32[at + 3]!, f32[at + 4]!, f32[at + 5]!];
  };
  const add = (m: Matrix, ax: number, ay: number, bx: number, by: number): void => {
    const x0 = m[0] * ax + m[2] * ay + m[4];
    const y0 = m[1] * ax + m[3] * ay + m[5];
    const x1 = m[0] * bx + m[2] * by + m[4];
    const y1 = m[1] * bx + m[3] * by + m[5];
    if (Math.abs(y1 - y0) <= SLANT && Math.abs(x1 - x0) >= MIN_LENGTH) {
      horizontal.push({ at: (y0 + y1) / 2, from: Math.min(x0, x1), to: Math.max(x0, x1) });
    } else if (Math.abs(x1 - x0) <= SLANT && Math.abs(y1 - y0) >= MIN_LENGTH) {
      vertical.push({ at: (x0 + x1) / 2, from: Math.min(y0, y1), to: Math.max(y0, y1) });
    }
  };
  while (stack.length > 0 && seen < MAX_OBJECTS && segments < MAX_SEGMENTS) {
    const { form, matrix } = stack.pop() as { form: number; matrix: Matrix };
    const count = form === 0 ? lib.FPDFPage_CountObjects(page.handle) : lib.FPDFFormObj_CountObjects(form);
    for (let i = 0; i < count && seen < MAX_OBJECTS && segments < MAX_SEGMENTS; i++, seen++) {
      const object = form === 0 ? lib.FPDFPage_GetObject(page.handle, i) : lib.FPDFFormObj_GetObject(form, i);
      const type = lib.FPDFPageObj_GetType(object);
      if (type === FORM) {
        const own = matrixOf(object);
        if (own !== undefined) stack.push({ form: object, matrix: multiply(own, matrix) });
        continue;
      }
      if (type !== PATH) continue;
      const own = matrixOf(object);
      if (own === undefined) continue;
      const m = multiply(own, matrix);
      const n = lib.FPDFPath_CountSegments(object);
      let startX = 0;
      let startY = 0;
      let x = 0;
      let y = 0;
      for (let k = 0; k < n && segments < MAX_SEGMENTS; k++, segments++) {
        const segment = lib.FPDFPath_GetPathSegment(object, k);
        if (segment === 0 || !lib.FPDFPathSegment_GetPoint(segment, scratch, scratch + 4)) continue;
        const f32 = heap.f32;
        const px = f32[scratch >>> 2]!;
        const py = f32[(scratch >>> 2) + 1]!;
        const kind = lib.FPDFPathSegment_GetType(segment);
        if (kind === 0) add(m, x, y, px, py);
        if (kind === 2) {
          startX = px;
          startY = py;
        }
        x = px;
        y = py;
        if (kind !== 2 && lib.FPDFPathSegment_GetClose(segment)) {
          add(m, x, y, startX, startY);
          x = startX;
          y = startY;
        }
      }
    }
  }
  return { horizontal: mergedRules(horizontal), vertical: mergedRules(vertical) };
}
