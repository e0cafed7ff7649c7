/**
 * The furniture classifier: gradient-boosted trees trained in Python (`training/furniture/`) on
 * margin rows of many labelled pages, exported as `model.json` and evaluated here, so nothing but
 * this file runs at run time. A tree sends a row left when its feature, as a 32-bit float (the
 * trainer's precision), is at most the node's threshold; the leaves' values add up, times the
 * learning rate, to the log-odds that the row is furniture.
 */
import exported from './model.json' with { type: 'json' };

/** One tree, as parallel arrays over its nodes; `left[i] === -1` marks a leaf. */
export interface FurnitureTree {
  readonly feature: readonly number[];
  readonly threshold: readonly number[];
  readonly left: readonly number[];
  readonly right: readonly number[];
  readonly value: readonly number[];
}

/** The exported model. */
export interface FurnitureModelFile {
  readonly version: number;
  readonly features: readonly string[];
  /** Log-odds before any tree. */
  readonly init: number;
  readonly learningRate: number;
  /** Probability from which a row is furniture. */
  readonly threshold: number;
  readonly trees: readonly FurnitureTree[];
  /** Feature vectors with the probability Python gave them: the TS evaluator must give the same. */
  readonly checks: readonly { readonly x: readonly number[]; readonly p: number }[];
  /** What it was trained on, for the record. */
  readonly trainedOn?: Readonly<Record<string, unknown>>;
}

/** The model shipped with Folio. */
export const FURNITURE_MODEL: FurnitureModelFile = exported as FurnitureModelFile;

/**
 * The probability that a row with features `x` (see `FEATURE_NAMES`) is furniture.
 *
 * @example
 * furnitureProbability(furnitureFeatures(candidate, 3, doc)) // 0.97
 */
export function furnitureProbability(x: readonly number[], model: Readonly<FurnitureModelFile> = FURNITURE_MODEL): number {
  let sum = 0;
  for (const tree of model.trees) {
    let node = 0;
    while (tree.left[node] !== -1) {
      const f = tree.feature[node] as number;
      node = Math.fround(x[f] ?? 0) <= (tree.threshold[node] as number) ? (tree.left[node] as number) : (tree.right[node] as number);
    }
    sum += tree.value[node] as number;
  }
  const raw = model.init + model.learningRate * sum;
  return 1 / (1 + Math.exp(-raw));
}
