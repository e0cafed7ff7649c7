/**
 * The document factory: seeded documents in six families, printed by the engines real documents
 * come from, with exact truth and olmOCR-Bench-style tests. `npx folio bench factory --build`
 * makes them; `npx folio bench quality --set factory,factory-scans` scores every engine on them.
 */
export type { BuildFactoryOptions, FactoryManifest } from './build.ts';
export { allot, buildFactory, FACTORY_DIR, planDocuments, readFactoryManifest, recordTruth } from './build.ts';
export type { CandidateTest, GeneratedTests, TruthCheck } from './check/index.ts';
export { checkedTests, checkTruth, joinHyphens } from './check/index.ts';
export { FACTORY_USAGE, runFactoryBench } from './cli.ts';
export type { Corpus } from './corpus/index.ts';
export { loadCorpus } from './corpus/index.ts';
export { FAMILIES } from './families/index.ts';
export type { LayerOrder } from './layer.ts';
export { ensurePoppler, layerPages } from './layer.ts';
export { truthMarkdown, truthPlainText } from './markdown.ts';
export { RENDERERS } from './render/index.ts';
export { scanDocument } from './scans.ts';
export type { DocumentScore, FurnitureCounts } from './score.ts';
export { furnitureCounts, scoreDocument, trigrams, truthGrid } from './score.ts';
export { factorySet } from './set.ts';
export { candidateTests } from './tests.ts';
export type * from './types.ts';
