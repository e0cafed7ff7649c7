/**
 * Page furniture across the OCR pages of a document. The layout stage judged each positioned
 * page's margin rows with what the document's earlier pages and its batch showed
 * (`FurnitureModel('ocr')`: the hand rules, and the classifier for rows that come back); an
 * engine that writes Markdown may label nothing. Here, with every page of the document at hand,
 * the rows of elements at the top and bottom edge go to the furniture classifier
 * (`core/furniture-model`), the one the text layer asks too, with the features measured from the
 * elements' boxes (no type size: the model was trained on rows with and without it). A row it
 * calls furniture becomes `pageHeader` / `pageFooter`; what the layout labelled stays.
 * `FOLIO_FURNITURE=rules` keeps the hand rules here too (`core/furniture.ts`), for comparison.
 */

import { FURNITURE_MAX_ROWS, FURNITURE_ZONE, furnitureKey, furnitureReason, PAGE_NUMBER } from '../../core/furniture.ts';
import type { FurnitureCandidate } from '../../core/furniture-model/index.ts';
import { FurnitureDocument, judgeFurniture } from '../../core/furniture-model/index.ts';
import type { Element } from '../../core/types.ts';

export interface OcrFurniturePage {
  /** Page size in the units of the element boxes. */
  readonly width: number;
  readonly height: number;
  /** False for a text-layer page, which finds its own furniture. */
  readonly ocr: boolean;
  readonly elements: readonly Element[];
}

/** A row of elements at an edge, as the classifier sees it. */
interface EdgeRow {
  readonly elements: readonly Element[];
  readonly candidate: FurnitureCandidate;
}

/** The wider zone, as a share of the page height, where rows go to the classifier. */
const WIDE_ZONE = 0.2;
/** Most rows from each edge. */
const WIDE_ROWS = 4;
/** Kinds a furniture row may have been read as. */
const CANDIDATE_KINDS = new Set<Element['kind']>(['paragraph', 'heading', 'pageHeader', 'pageFooter', 'caption']);

/**
 * The pages' elements with the furniture rows of the OCR pages re-kinded.
 *
 * @example
 * const [elements] = markOcrFurniture([{ width: 612, height: 792, ocr: true, elements }]) // `- 3 -` at the foot → pageFooter
 */
export function markOcrFurniture(pages: readonly OcrFurniturePage[]): Element[][] {
  if (process.env.FOLIO_FURNITURE === 'rules') return markByRules(pages);
  const perPage = pages.map((page) => (page.ocr ? edgeRows(page) : []));
  // OCR rows: the same running head read a little differently on each page still matches.
  const doc = new FurnitureDocument({ loose: true });
  perPage.forEach((rows, i) => {
    doc.observe(
      i + 1,
      rows.map((r) => r.candidate),
    );
  });
  const kinds = new Map<Element, Element['kind']>();
  perPage.forEach((rows, i) => {
    for (const { elements, candidate } of rows) {
      // What a page shows alone is the engine's to judge; this pass adds what the document
      // shows: rows that come back on other pages, or that carry a page number.
      const across = doc.repeats(candidate, i + 1) > 0 || doc.sequence(candidate, i + 1) > 0 || PAGE_NUMBER.test(candidate.text.trim());
      if (!across || !judgeFurniture(candidate, i + 1, doc).furniture) continue;
      for (const element of elements) kinds.set(element, candidate.edge === 'top' ? 'pageHeader' : 'pageFooter');
    }
  });
  return rekind(pages, kinds);
}

function rekind(pages: readonly OcrFurniturePage[], kinds: ReadonlyMap<Element, Element['kind']>): Element[][] {
  return pages.map((page) =>
    page.elements.map((element) => {
      const kind = kinds.get(element);
      return kind === undefined || kind === element.kind ? element : { ...element, kind };
    }),
  );
}

/** Rows of elements (boxes overlapping by half the smaller height) at each edge, measured. */
function edgeRows(page: OcrFurniturePage): EdgeRow[] {
  const { height } = page;
  if (!(height > 0)) return [];
  const boxed = page.elements.filter((e) => e.bbox !== undefined && e.text.trim() !== '');
  if (boxed.length === 0) return [];
  const rows: { elements: Element[]; y1: number; y2: number }[] = [];
  for (const e of [...boxed].sort((a, b) => a.bbox![1] - b.bbox![1])) {
    const [, y1, , y2] = e.bbox!;
    const last = rows[rows.length - 1];
    if (last !== undefined && Math.min(last.y2, y2) - Math.max(last.y1, y1) > 0.5 * Math.min(last.y2 - last.y1, y2 - y1)) {
      last.elements.push(e);
      last.y1 = Math.min(last.y1, y1);
      last.y2 = Math.max(last.y2, y2);
    } else rows.push({ elements: [e], y1, y2 });
  }
  const left = Math.min(...boxed.map((e) => e.bbox![0]));
  const width = Math.max(Math.max(...boxed.map((e) => e.bbox![2])) - left, 1);
  // No type size on element boxes: a short element's box height stands for a body line.
  const short = boxed.filter((e) => e.text.length <= 60).map((e) => e.bbox![3] - e.bbox![1]);
  const body = short.length > 0 ? median(short) : height / 70;
  const out: EdgeRow[] = [];
  const taken = new Set<(typeof rows)[number]>();
  const take = (ordered: typeof rows, edge: 'top' | 'bottom'): void => {
    for (let i = 0; i < Math.min(WIDE_ROWS, ordered.length); i++) {
      const row = ordered[i]!;
      const inZone = edge === 'top' ? row.y2 <= WIDE_ZONE * height : row.y1 >= (1 - WIDE_ZONE) * height;
      if (!inZone || taken.has(row)) break;
      taken.add(row);
      const next = ordered[i + 1];
      const previous = ordered[i - 1];
      const gapIn = next === undefined ? 20 * body : edge === 'top' ? next.y1 - row.y2 : row.y1 - next.y2;
      const gapOut = previous === undefined ? (edge === 'top' ? row.y1 : height - row.y2) : edge === 'top' ? row.y1 - previous.y2 : previous.y1 - row.y2;
      const elements = row.elements.filter((e) => CANDIDATE_KINDS.has(e.kind));
      // A row holding a table or a figure is no running line.
      if (elements.length < row.elements.length) break;
      const xs = elements.map((e) => e.bbox!);
      out.push({
        elements,
        candidate: {
          text: [...elements]
            .sort((a, b) => a.bbox![0] - b.bbox![0])
            .map((e) => e.text.trim())
            .join(' '),
          edge,
          rank: i,
          top: row.y1 / height,
          bottom: row.y2 / height,
          x0: (Math.min(...xs.map((b) => b[0])) - left) / width,
          x1: (Math.max(...xs.map((b) => b[2])) - left) / width,
          gapIn: gapIn / body,
          gapOut: gapOut / body,
          cells: elements.length,
          nextCells: next?.elements.length ?? 0,
        },
      });
    }
  };
  take(rows, 'top');
  take([...rows].reverse(), 'bottom');
  return out;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** The hand rules, as before the classifier: page numbers, or rows that come back on two pages or more. */
function markByRules(pages: readonly OcrFurniturePage[]): Element[][] {
  const perPage = pages.map((page) => (page.ocr ? ruleCandidates(page) : []));
  const pagesByKey = new Map<string, Set<number>>();
  perPage.forEach((candidates, i) => {
    for (const { key } of candidates) pagesByKey.set(key, (pagesByKey.get(key) ?? new Set<number>()).add(i));
  });
  const kinds = new Map<Element, Element['kind']>();
  for (const candidates of perPage) {
    for (const { element, edge, key } of candidates) {
      if (element.kind !== 'paragraph' || element.text.length > 160) continue;
      const seen = pagesByKey.get(key)?.size ?? 1;
      // No type size here: the size tests of the rule are neutral, and without a measured gap to
      // the body only what the row says (a page number) or its repetition counts.
      const reason = furnitureReason({ text: element.text.trim(), edge, size: 1, bodySize: 1, isolated: false, pages: seen });
      if (reason === 'page-number' || (reason !== undefined && seen >= 2)) kinds.set(element, edge === 'top' ? 'pageHeader' : 'pageFooter');
    }
  }
  return rekind(pages, kinds);
}

/** The outermost elements at each edge that lie wholly in the margin zone (at most a few). */
function ruleCandidates(page: OcrFurniturePage): { element: Element; edge: 'top' | 'bottom'; key: string }[] {
  const { height } = page;
  if (!(height > 0)) return [];
  const byTop = page.elements.filter((e) => e.bbox !== undefined && e.text.trim() !== '').sort((a, b) => a.bbox![1] - b.bbox![1]);
  const out: { element: Element; edge: 'top' | 'bottom'; key: string }[] = [];
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
