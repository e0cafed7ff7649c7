/**
 * What the text content cannot tell: whether text is drawn invisibly (render mode 3, the OCR
 * layer over a scan) and how much of the page images cover. Both need pdfjs' operator list,
 * which decodes images and costs far more than the text content, so callers ask only when the
 * answer matters.
 */
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { loadPdfJs } from '../pdf/open.ts';

export interface OperatorSummary {
  /** Glyphs shown in any render mode. */
  readonly glyphs: number;
  /** Glyphs shown with render mode 3 or 7 (neither fill nor stroke). */
  readonly invisibleGlyphs: number;
  readonly images: number;
  /** Share of the page area covered by image boxes (0–1, overlaps not subtracted, capped at 1). */
  readonly imageCoverage: number;
}

type Matrix = [number, number, number, number, number, number];

function multiply(m: Matrix, n: readonly number[]): Matrix {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = n;
  return [
    a * m[0] + b * m[2],
    a * m[1] + b * m[3],
    c * m[0] + d * m[2],
    c * m[1] + d * m[3],
    e * m[0] + f * m[2] + m[4],
    e * m[1] + f * m[3] + m[5],
  ];
}

/** Walk the operator list once, tracking the graphics state stack (CTM and render mode). */
export async function inspectOperators(page: PDFPageProxy): Promise<OperatorSummary> {
  const { OPS } = await loadPdfJs();
  const list = await page.getOperatorList();
  const [px0 = 0, py0 = 0, px1 = 1, py1 = 1] = page.view;
  const pageArea = Math.max(1, (px1 - px0) * (py1 - py0));
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  let mode = 0;
  const stack: { ctm: Matrix; mode: number }[] = [];
  let glyphs = 0;
  let invisible = 0;
  let images = 0;
  let imageArea = 0;
  const { fnArray, argsArray } = list;
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[] | null;
    switch (fn) {
      case OPS.save:
        stack.push({ ctm, mode });
        break;
      case OPS.restore: {
        const state = stack.pop();
        if (state !== undefined) ({ ctm, mode } = state);
        break;
      }
      case OPS.transform:
        ctm = multiply(ctm, args as number[]);
        break;
      case OPS.paintFormXObjectBegin:
        stack.push({ ctm, mode });
        if (Array.isArray(args?.[0])) ctm = multiply(ctm, args[0] as number[]);
        break;
      case OPS.paintFormXObjectEnd: {
        const state = stack.pop();
        if (state !== undefined) ({ ctm, mode } = state);
        break;
      }
      case OPS.setTextRenderingMode:
        mode = Number(args?.[0] ?? 0);
        break;
      case OPS.showText:
      case OPS.showSpacedText:
      case OPS.nextLineShowText:
      case OPS.nextLineSetSpacingShowText: {
        const shown = args?.[args.length - 1];
        const n = Array.isArray(shown) ? shown.filter((g) => typeof g === 'object' && g !== null).length : 0;
        glyphs += n;
        if (mode === 3 || mode === 7) invisible += n;
        break;
      }
      case OPS.paintImageXObject:
      case OPS.paintInlineImageXObject:
      case OPS.paintImageMaskXObject: {
        images++;
        // An image fills the unit square under the CTM: its area is |det|.
        imageArea += Math.abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]);
        break;
      }
      default:
        break;
    }
  }
  return { glyphs, invisibleGlyphs: invisible, images, imageCoverage: Math.min(1, imageArea / pageArea) };
}
