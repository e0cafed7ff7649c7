/**
 * How much of a PDF page is covered by raster images, read from the operator list. Areas are
 * unioned on a coarse grid (clipped to the page), so a scan drawn twice, or tiled into strips,
 * counts once and never beyond the page.
 */
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { loadPdfJs } from '../pdf/index.ts';

type Matrix = [number, number, number, number, number, number];

/** Grid cells per side: fine enough for figures, cheap for any page. */
const GRID = 64;

export interface ImageCoverage {
  /** Share of the page area (0–1) under at least one image. */
  readonly coverage: number;
  /** Images drawn on the page. */
  readonly images: number;
  /** Share of the page under the single largest image. */
  readonly largest: number;
}

function multiply(m: Matrix, n: readonly number[]): Matrix {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = n;
  return [
    a * m[0] + b * m[2], a * m[1] + b * m[3],
    c * m[0] + d * m[2], c * m[1] + d * m[3],
    e * m[0] + f * m[2] + m[4], e * m[1] + f * m[3] + m[5],
  ];
}

/**
 * Measure image coverage of a page.
 *
 * @example
 * const { coverage } = await imageCoverage(page); // 0.97 for a scan
 */
export async function imageCoverage(page: PDFPageProxy): Promise<ImageCoverage> {
  const { OPS } = await loadPdfJs();
  const list = await page.getOperatorList();
  const [vx0 = 0, vy0 = 0, vx1 = 1, vy1 = 1] = page.view;
  const pw = Math.max(1e-6, vx1 - vx0);
  const ph = Math.max(1e-6, vy1 - vy0);
  const cells = new Uint8Array(GRID * GRID);
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const stack: Matrix[] = [];
  let images = 0;
  let largest = 0;
  const { fnArray, argsArray } = list;
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[] | null;
    if (fn === OPS.save || fn === OPS.paintFormXObjectBegin) {
      stack.push(ctm);
      if (fn === OPS.paintFormXObjectBegin && Array.isArray(args?.[0])) ctm = multiply(ctm, args[0] as number[]);
    } else if (fn === OPS.restore || fn === OPS.paintFormXObjectEnd) {
      ctm = stack.pop() ?? ctm;
    } else if (fn === OPS.transform) {
      ctm = multiply(ctm, (args ?? []) as number[]);
    } else if (fn === OPS.paintImageXObject || fn === OPS.paintInlineImageXObject || fn === OPS.paintImageMaskXObject || fn === OPS.paintImageXObjectRepeat) {
      images++;
      // An image fills the unit square under the CTM; its page footprint is that square's bounds.
      const xs = [ctm[4], ctm[0] + ctm[4], ctm[2] + ctm[4], ctm[0] + ctm[2] + ctm[4]];
      const ys = [ctm[5], ctm[1] + ctm[5], ctm[3] + ctm[5], ctm[1] + ctm[3] + ctm[5]];
      const gx0 = clampCell(((Math.min(...xs) - vx0) / pw) * GRID);
      const gx1 = clampCell(((Math.max(...xs) - vx0) / pw) * GRID);
      const gy0 = clampCell(((Math.min(...ys) - vy0) / ph) * GRID);
      const gy1 = clampCell(((Math.max(...ys) - vy0) / ph) * GRID);
      largest = Math.max(largest, ((gx1 - gx0) * (gy1 - gy0)) / (GRID * GRID));
      for (let y = gy0; y < gy1; y++) cells.fill(1, y * GRID + gx0, y * GRID + gx1);
    }
  }
  const covered = cells.reduce((s, v) => s + v, 0);
  return { coverage: covered / (GRID * GRID), images, largest };
}

function clampCell(v: number): number {
  return Math.min(GRID, Math.max(0, Math.round(v)));
}
