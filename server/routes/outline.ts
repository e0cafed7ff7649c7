/**
 * The pages of a document before it is read: how many and how large, which PDFium and sharp know
 * in milliseconds. The document view draws them (and asks for their images) while the pipeline
 * still reads the text; a page not read yet has the route `pending`.
 */
import type { SourceDocument } from '../../core/types.ts';
import { openPdf } from '../../pipeline/pdf/index.ts';
import type { PageView } from './api-types.ts';

/** The route of a page the pipeline has not handed over yet. */
export const PENDING = 'pending';

const pending = (pageNumber: number, width?: number, height?: number): PageView => ({
  pageNumber,
  ...(width !== undefined && height !== undefined ? { width, height } : {}),
  engine: PENDING,
  reason: 'reading',
  elements: [],
});

/**
 * The pages of `doc` with their sizes (PDF points or pixels, as the pipeline measures them), or
 * the pages `known` names when the type has no cheap count (Markdown, Office); never throws: an
 * unreadable file is the pipeline's to report, with its reason.
 */
export async function outlinePages(doc: SourceDocument, known: readonly number[] = []): Promise<PageView[]> {
  try {
    if (doc.mime === 'application/pdf') {
      const pdf = await openPdf(doc.bytes, { source: doc.uri });
      try {
        const pages: PageView[] = [];
        // Sized without loading a page's content: a 27-page scan outlines in ms rather than a third of a second.
        for (let n = 1; n <= pdf.numPages; n++) {
          const size = pdf.pageSize(n);
          pages.push(pending(n, size?.width, size?.height));
        }
        return pages;
      } finally {
        await pdf.close();
      }
    }
    if (doc.mime.startsWith('image/')) {
      const sharp = (await import('sharp')).default;
      const meta = await sharp(doc.bytes, { limitInputPixels: false }).metadata();
      const count = Math.max(1, meta.pages ?? 1);
      const height = count > 1 ? (meta.pageHeight ?? meta.height) : meta.height;
      return Array.from({ length: count }, (_, i) => pending(i + 1, meta.width, height));
    }
  } catch {
    // The pipeline reads the file next and says what is wrong with it.
  }
  return [...new Set(known)].sort((a, b) => a - b).map((n) => pending(n));
}
