/**
 * The verdict on one margin row: the classifier's probability, with the two things the issue
 * forbids checked first whatever the model says — a table's header row (several cells over a row
 * of as many) and a title or heading (type bigger than the body's) stay in the body.
 */
import { PAGE_NUMBER } from '../furniture.ts';
import type { FurnitureCandidate, FurnitureDocument } from './features.ts';
import { furnitureFeatures } from './features.ts';
import { FURNITURE_MODEL, furnitureProbability } from './model.ts';

export interface FurnitureVerdict {
  readonly furniture: boolean;
  readonly probability: number;
  readonly features: readonly number[];
}

/**
 * Judge a candidate row of page `page` (1-based) of a document seen so far as `doc`.
 *
 * @example
 * judgeFurniture(candidate, 3, doc).furniture // true for `- 3 -` at the foot
 */
export function judgeFurniture(row: Readonly<FurnitureCandidate>, page: number, doc: FurnitureDocument): FurnitureVerdict {
  const features = furnitureFeatures(row, page, doc);
  const probability = furnitureProbability(features);
  return { furniture: probability >= FURNITURE_MODEL.threshold && !protectedRow(row), probability, features };
}

/** A table's header row, or a title or heading: never furniture. */
function protectedRow(row: Readonly<FurnitureCandidate>): boolean {
  const text = row.text.trim();
  if (PAGE_NUMBER.test(text)) return false;
  const tableHeader = row.cells >= 3 && row.nextCells >= 3;
  // Running heads are set no bigger than the body: a bigger line is a heading or a title.
  const heading = (row.sizeRatio ?? 1) >= 1.2;
  return tableHeader || heading;
}
