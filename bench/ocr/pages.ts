/** Page images for the benchmark: PDF pages rendered, image files decoded, by relative path. */
import { readFile } from 'node:fs/promises';
import type { PageImage } from '../../inference/engine.ts';
import { openPdf } from '../../pipeline/pdf/index.ts';
import { loadImagePages, renderPdfPage } from '../../pipeline/render/index.ts';

/** Render the given 1-based pages of a PDF (all when `pages` is omitted) or decode an image file. */
export async function pageImages(path: string, pages?: readonly number[]): Promise<PageImage[]> {
  const bytes = await readFile(path);
  if (!path.toLowerCase().endsWith('.pdf')) return loadImagePages(bytes, { source: path, docId: path });
  const pdf = await openPdf(bytes, { source: path });
  try {
    const wanted = pages ?? Array.from({ length: pdf.numPages }, (_, i) => i + 1);
    const out: PageImage[] = [];
    for (const n of wanted) out.push(await renderPdfPage(await pdf.page(n), { source: path, docId: path, pageNumber: n }));
    return out;
  } finally {
    await pdf.close();
  }
}
