export { maskedText } from '../furniture.ts';
export type { FurnitureCandidate } from './features.ts';
export { carriedNumber, FEATURE_NAMES, FurnitureDocument, furnitureFeatures, looseText } from './features.ts';
export type { FurnitureVerdict } from './judge.ts';
export { judgeFurniture } from './judge.ts';
export type { FurnitureModelFile, FurnitureTree } from './model.ts';
export { FURNITURE_MODEL, furnitureProbability } from './model.ts';
