/**
 * The chunking step of a processed document, apart from reading it: it needs only the chunker,
 * so a thread that chunks what worker threads read does not load the PDF and Markdown modules.
 */
import type { QualityReport } from '../../core/types.ts';
import { chunkDocument } from '../chunk/index.ts';
import type { ProcessOptions } from './options.ts';
import type { ProcessedDocument } from './process-document.ts';

/**
 * Pages that fail the gate this badly (a loop, garbage) are dead-lettered rather than indexed;
 * milder failures are indexed with `quality.passed = false` so a search can filter them out.
 */
export const DEAD_LETTER_SCORE = 0.3;

/**
 * The chunking step of {@link processDocument}: cut a read document's elements into chunks. Every
 * input it needs (kept pages, their quality, the engine) is in the result itself, so it can run
 * on another thread than the one that read the document. Child documents (attachments) are
 * chunked too, their chunks naming their parent.
 */
export function chunkProcessed(
  result: ProcessedDocument,
  options: Readonly<Pick<ProcessOptions, 'maxTokens' | 'overlapTokens' | 'countTokens'>> = {},
): ProcessedDocument {
  const children = result.children?.map((child) => chunkProcessed(child, options));
  if (!result.ok) return children === undefined ? result : { ...result, children };
  const { doc, elements } = result;
  const quality = new Map<number, QualityReport>();
  let engine = 'text';
  for (const page of result.pages) {
    if (page.failed !== undefined || page.quality === undefined || !isKept(page.quality)) continue;
    if (page.engine !== 'text') engine = page.engine;
    quality.set(page.pageNumber, page.quality);
  }
  // The document's title on every chunk (each chunk's own place is its heading path).
  const chunks = chunkDocument(elements, {
    docId: doc.id,
    source: doc.uri,
    title: result.title,
    contentHash: doc.contentHash,
    engine,
    quality,
    maxTokens: options.maxTokens,
    overlapTokens: options.overlapTokens,
    countTokens: options.countTokens,
  });
  const parentId = doc.parent?.id;
  return {
    ...result,
    chunks: parentId === undefined ? chunks : chunks.map((chunk) => ({ ...chunk, parentId })),
    ...(children === undefined ? {} : { children }),
  };
}

/** Pages that fail the gate badly are dead-lettered; the rest are indexed (see DEAD_LETTER_SCORE). */
export function isKept(quality: QualityReport): boolean {
  return quality.passed || quality.score >= DEAD_LETTER_SCORE;
}
