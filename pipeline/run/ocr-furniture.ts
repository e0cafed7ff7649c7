/**
 * Page furniture across the OCR pages of a document. An engine judges each page alone (paddle
 * labels `page_header` / `page_footer` from its line boxes; a remote engine may label nothing);
 * here, with every page of the document at hand, paragraphs at the top or bottom edge that read
 * as a page number, or that come back on two pages or more (numbers masked: `400 BRITISH
 * HUSBANDRY.`, `BRITISH HUSBANDRY. 401`), become `pageHeader` / `pageFooter` too. The rule is
 * the one the text layer uses (`core/furniture.ts`); only the boxes are the elements'.
 */
import { FURNITURE_MAX_ROWS, FURNITURE_ZONE, furnitureKey, furnitureReason } from '../../core/furniture.ts';
import type { Element } from '../../core/types.ts';

export interface OcrFurniturePage {
  /** Page size in the units of the element boxes. */
  readonly width: number;
  readonly height: number;
  /** False for a text-layer page, which finds its own furniture. */
  readonly ocr: boolean;
  readonly elements: readonly Element[];
}

interface Candidate {
  readonly element: Element;
  readonly edge: 'top' | 'bottom';
  readonly key: string;
}

/**
 * The pages' elements with the furniture paragraphs of the OCR pages re-kinded.
 *
 * @example
 * const [elements] = markOcrFurniture([{ width: 612, height: 792, ocr: true, elements }]) // `- 3 -` at the foot → pageFooter
 */
export function markOcrFurniture(pages: readonly OcrFurniturePage[]): Element[][] {
  const perPage = pages.map((page) => (page.ocr ? edgeElements(page) : []));
  const pagesByKey = new Map<string, Set<number>>();
  perPage.forEach((candidates, i) => {
    for (const { key } of candidates) {
      const seen = pagesByKey.get(key) ?? new Set<number>();
      seen.add(i);
      pagesByKey.set(key, seen);
    }
  });
  const furniture = new Map<Element, Element['kind']>();
  for (const candidates of perPage) {
    for (const { element, edge, key } of candidates) {
      if (element.kind !== 'paragraph' || element.text.length > 160) continue;
      const seen = pagesByKey.get(key)?.size ?? 1;
      // No type size here: the size tests of the rule are neutral, and without a measured gap to
      // the body only what the row says (a page number) or its repetition counts.
      const reason = furnitureReason({ text: element.text.trim(), edge, size: 1, bodySize: 1, isolated: false, pages: seen });
      if (reason === 'page-number' || (reason !== undefined && seen >= 2)) {
        furniture.set(element, edge === 'top' ? 'pageHeader' : 'pageFooter');
      }
    }
  }
  return pages.map((page) =>
    page.elements.map((element) => {
      const kind = furniture.get(element);
      return kind === undefined ? element : { ...element, kind };
    }),
  );
}

/** The outermost elements at each edge that lie wholly in the margin zone (at most a few). */
function edgeElements(page: OcrFurniturePage): Candidate[] {
  const { height } = page;
  if (!(height > 0)) return [];
  const boxed = page.elements.filter((e) => e.bbox !== undefined && e.text.trim() !== '');
  const byTop = [...boxed].sort((a, b) => a.bbox![1] - b.bbox![1]);
  const out: Candidate[] = [];
  const take = (ordered: readonly Element[], edge: 'top' | 'bottom'): void => {
    for (const element of ordered.slice(0, FURNITURE_MAX_ROWS)) {
      const [, y1, , y2] = element.bbox!;
      const inZone = edge === 'top' ? y2 <= FURNITURE_ZONE * height : y1 >= (1 - FURNITURE_ZONE) * height;
      if (!inZone) break;
      out.push({ element, edge, key: furnitureKey(edge, element.text) });
    }
  };
  take(byTop, 'top');
  take(
    [...byTop].sort((a, b) => b.bbox![3] - a.bbox![3]),
    'bottom',
  );
  return out;
}
