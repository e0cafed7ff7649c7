/**
 * A document's truth checked against its PDF's text layer (pdftotext), for the families' tests and
 * debug runs: every text of the body found in the document's text, every furniture line where its
 * renderer prints it, and no furniture where the truth has none.
 */
import { ensurePoppler, layerPages } from '../layer.ts';
import type { PlannedDocument } from '../types.ts';
import { type BodyCheck, blockTexts, checkBody } from './body.ts';
import { type FurniturePlace, missingFurniture, unexpectedFurniture, wordedFurniture } from './furniture.ts';
import { offBody } from './page-body.ts';

export interface TruthCheck {
  readonly pages: number;
  readonly body: BodyCheck;
  readonly furniture: {
    /** Furniture lines checked, one per line a page has. */
    readonly checked: number;
    /** `page N: header|footer 'text'` not where its renderer prints it (`missingFurniture`). */
    readonly missing: string[];
    /** `page N: 'line'`: furniture where the truth has none (`unexpectedFurniture`). */
    readonly unexpected: string[];
  };
}

/**
 * Check `doc`'s truth against `pdf`'s text layer (poppler-utils installed where missing, as the
 * renderers install their engines).
 *
 * @example
 * const { body, furniture } = await checkTruth(doc, 'out/papers-article-001.pdf');
 */
export async function checkTruth(doc: PlannedDocument, pdf: string, log: (line: string) => void = console.error): Promise<TruthCheck> {
  await ensurePoppler(log);
  const printed = await layerPages(pdf, 'layout');
  const read = await layerPages(pdf);
  const pages = printed.length;
  const furniture = Array.from({ length: pages }, (_, i) => doc.furniture(i + 1, pages));
  // Latin pages in content order (engines write columns one after the other); others in
  // pdftotext's reading order, which puts right-to-left lines in logical order.
  const latin = (doc.script ?? 'latin') === 'latin';
  const bodies = (latin ? await layerPages(pdf, 'raw') : read).map((page, p) => offBody(page, furniture[p]!).join(' '));
  const place: FurniturePlace = doc.source.renderer === 'libreoffice' ? 'page' : 'edges';
  const others = wordedFurniture(furniture, doc.blocks.flatMap(blockTexts).join(' '));
  const missing: string[] = [];
  const unexpected: string[] = [];
  furniture.forEach((f, p) => {
    const text = { printed: printed[p]!, read: read[p] ?? '' };
    missing.push(...missingFurniture(p + 1, f, text, place));
    unexpected.push(...unexpectedFurniture(p + 1, f, text, others));
  });
  const checked = furniture.reduce((n, f) => n + f.header.length + f.footer.length, 0);
  return { pages, body: checkBody(doc.blocks, bodies, latin), furniture: { checked, missing, unexpected } };
}
