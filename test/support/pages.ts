/** Page images from the outside scans, rendered the way the pipeline renders them. */
import { readFile } from 'node:fs/promises';
import type { PageImage } from '../../inference/engine.ts';
import { openPdf } from '../../pipeline/pdf/index.ts';
import { renderPdfPage } from '../../pipeline/render/index.ts';

export const OCR_SCANS = '../shared/data/docling-dev/ocr';

/** Page 1 of `OCR_SCANS/<name>` as a PageImage. */
export async function renderFirstPage(name: string): Promise<PageImage> {
  const source = `${OCR_SCANS}/${name}`;
  const pdf = await openPdf(await readFile(source), { source });
  try {
    return await renderPdfPage(await pdf.page(1), { source, docId: name, pageNumber: 1 });
  } finally {
    await pdf.close();
  }
}
