/** Helpers of the web app's browser test: where a PDF's text really is, files dropped on the page. */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Page } from 'playwright-core';

export interface TextBox {
  readonly text: string;
  /** Top-left origin, PDF points: [x1, y1, x2, y2]. */
  readonly box: readonly [number, number, number, number];
}

/**
 * Every text run of one page with its box, read by pdf.js (the pipeline reads text with PDFium,
 * so this is a second opinion on where the words are), and the page size in points.
 */
export async function pdfTextBoxes(path: string, pageNumber: number): Promise<{ width: number; height: number; items: TextBox[] }> {
  // pdfjs-dist is a dev dependency for this second opinion only; the product renders with PDFium.
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(await readFile(path)), isEvalSupported: false, useSystemFonts: false }).promise;
  try {
    const page = await doc.getPage(pageNumber);
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const items: TextBox[] = [];
    for (const item of content.items) {
      if (!('str' in item) || item.str.trim() === '') continue;
      const [, , , , e, f] = item.transform as number[];
      const [x1, baseline] = viewport.convertToViewportPoint(e!, f!) as [number, number];
      items.push({ text: item.str, box: [x1, baseline - item.height, x1 + item.width, baseline] });
    }
    return { width: viewport.width, height: viewport.height, items };
  } finally {
    await doc.destroy();
  }
}

export const normalise = (text: string): string =>
  text
    .replace(/[\s\u00ad]+/g, ' ')
    .replace(/[‐-―]/g, '-')
    .trim()
    .toLowerCase();

/** Drops `path` on `selector` the way a person does: a `drop` event carrying a DataTransfer with the file. */
export async function dropFile(page: Page, selector: string, path: string, type: string): Promise<void> {
  const data = (await readFile(path)).toString('base64');
  // A string, not a function: the test code is type-checked without the DOM library.
  const transfer = await page.evaluateHandle(`(() => {
    const binary = atob(${JSON.stringify(data)});
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    const dt = new DataTransfer();
    dt.items.add(new File([bytes], ${JSON.stringify(basename(path))}, { type: ${JSON.stringify(type)} }));
    return dt;
  })()`);
  await page.dispatchEvent(selector, 'dragover', { dataTransfer: transfer });
  await page.dispatchEvent(selector, 'drop', { dataTransfer: transfer });
}
