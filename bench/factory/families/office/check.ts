/**
 * The truth check the builder runs, for the office families' own tests and debug runs: every
 * furniture line on its page's text layer, every heading, sentence, list item and table cell on
 * the document's (pdftotext, pages split at form feeds, whitespace collapsed).
 */
import { layerPages } from '../../layer.ts';
import { aptEnsure } from '../../render/apt.ts';
import type { PlannedDocument, TruthBlock } from '../../types.ts';

export interface TruthCheck {
  readonly pages: number;
  /**
   * `missing`: a page's furniture line not on its text layer; `unexpected`: a worded line of another
   * page's furniture on a page whose truth does not have it (a first page or an even page printed
   * with the wrong head), where the body does not hold that text too.
   */
  readonly furniture: { readonly checked: number; readonly missing: readonly string[]; readonly unexpected: readonly string[] };
  readonly texts: { readonly checked: number; readonly missing: readonly string[] };
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** pdftotext's text of each page (poppler-utils installed where missing, as the renderers install their engines). */
export async function pageTexts(pdf: string): Promise<string[]> {
  await aptEnsure('pdftotext', ['poppler-utils'], (line) => console.error(line));
  return layerPages(pdf);
}

/** The texts of the body a reader would find: headings, sentences of paragraphs, list items, cells, captions. */
export function bodyTexts(blocks: readonly TruthBlock[]): string[] {
  return blocks.flatMap((b): string[] => {
    switch (b.kind) {
      case 'heading':
      case 'caption':
        return [b.text];
      case 'paragraph':
        return b.text.split(/(?<=[.!?])\s+/).filter((s) => s.length >= 25 || b.text.length < 25);
      case 'list':
        return b.items.map((i) => i.text);
      case 'table':
        return b.table.cells.map((c) => c.text).filter((t) => t !== '');
      default:
        return [];
    }
  });
}

/** Check a rendered document's truth against its PDF's text layer. */
export async function checkTruth(doc: PlannedDocument, pdf: string): Promise<TruthCheck> {
  const layers = (await pageTexts(pdf)).map(squash);
  const pages = layers.length;
  const missingFurniture: string[] = [];
  let furniture = 0;
  for (let p = 1; p <= pages; p++) {
    const { header, footer } = doc.furniture(p, pages);
    for (const line of [...header, ...footer]) {
      furniture++;
      if (!layers[p - 1]!.includes(squash(line))) missingFurniture.push(`page ${p}: ${line}`);
    }
  }
  const all = layers.join(' ');
  const texts = bodyTexts(doc.blocks);
  const body = texts.map(squash).join(' ');
  const lines = Array.from({ length: pages }, (_, i) => doc.furniture(i + 1, pages));
  const worded = [...new Set(lines.flatMap((f) => [...f.header, ...f.footer]))].filter(
    (l) => l.length >= 8 && /[A-Za-z]{3}/.test(l) && !body.includes(squash(l)),
  );
  const unexpected: string[] = [];
  lines.forEach((f, i) => {
    const own = [...f.header, ...f.footer];
    // A line inside one of this page's own (an address inside the registered-office line) is no surprise.
    for (const line of worded) if (!own.some((o) => o.includes(line)) && layers[i]!.includes(squash(line))) unexpected.push(`page ${i + 1}: ${line}`);
  });
  // pdftotext joins a word broken after a hyphen at a line end and drops the hyphen ("remove-\nposition"
  // → "removeposition"): the builder's fuzzy match allows that, so this check does too.
  const loose = (s: string): string => s.replace(/[\s-]+/g, '');
  const allLoose = loose(all);
  const missingTexts = texts.filter((t) => !all.includes(squash(t)) && !allLoose.includes(loose(t)));
  return { pages, furniture: { checked: furniture, missing: missingFurniture, unexpected }, texts: { checked: texts.length, missing: missingTexts } };
}
