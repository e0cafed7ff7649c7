/**
 * Pages drawn with pdf-lib (text and rules at exact places) and rendered the way the pipeline
 * renders a scan, for the OCR route's layout tests: what paddle reads from them is real OCR.
 */
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import type { PageImage } from '../../inference/engine.ts';
import { openPdf } from '../../pipeline/pdf/index.ts';
import { renderPdfPage } from '../../pipeline/render/index.ts';

export interface DrawnText {
  readonly text: string;
  /** From the left edge, points. */
  readonly x: number;
  /** Baseline from the top edge, points. */
  readonly y: number;
  /** @default 11 */
  readonly size?: number;
  /** @default false */
  readonly bold?: boolean;
}

export interface DrawnRule {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
  /** @default 1 */
  readonly thickness?: number;
}

/** A one-page PDF of `texts` and `rules` (points from the top-left) on a Letter page. */
export async function drawnPdf(texts: readonly DrawnText[], rules: readonly DrawnRule[] = []): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  for (const t of texts) page.drawText(t.text, { x: t.x, y: 792 - t.y, size: t.size ?? 11, font: t.bold === true ? bold : regular });
  for (const r of rules) {
    page.drawLine({ start: { x: r.x0, y: 792 - r.y0 }, end: { x: r.x1, y: 792 - r.y1 }, thickness: r.thickness ?? 1, color: rgb(0, 0, 0) });
  }
  return doc.save();
}

/** Page 1 of a PDF rendered as the pipeline renders a page for OCR (at `dpi`). */
export async function renderedPage(bytes: Uint8Array, name: string, dpi = 200): Promise<PageImage> {
  const pdf = await openPdf(bytes, { source: name });
  try {
    return await renderPdfPage(await pdf.page(1), { source: name, docId: name, pageNumber: 1, dpi });
  } finally {
    await pdf.close();
  }
}
