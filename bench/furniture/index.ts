export { FURNITURE_USAGE, furnitureReport, runFurnitureBench } from './cli.ts';
export type { FurniturePageTruth, FurnitureStyle, GeneratedDocument } from './documents.ts';
export { FURNITURE_STYLES, generateDocument } from './documents.ts';
export type { FurnitureBenchOptions, FurniturePageRow, FurnitureResult } from './run.ts';
export { runFurnitureSet, scanDocument, scoreFurniturePage } from './run.ts';
