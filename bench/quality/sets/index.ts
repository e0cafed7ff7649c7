/**
 * The named sets of `folio bench quality --set NAME`. A new set (the scanned pages of
 * `bench/scans/`, say) is one more entry here.
 */
import { fileURLToPath } from 'node:url';
import { factorySet } from '../../factory/set.ts';
import { formulaSet } from '../formulas/set.ts';
import { ensureTableSet, TABLE_COUNT, TABLES_DIR } from '../tables/make.ts';
import type { QualitySet } from '../types.ts';
import { groundTruthSet } from './docling.ts';
import { icdarSet } from './icdar.ts';
import { olmocrSet } from './olmocr.ts';

export const QUALITY_SETS: Readonly<Record<string, () => QualitySet>> = {
  icdar: () => icdarSet(),
  docling: () => groundTruthSet(),
  olmocr: () => olmocrSet(),
  // Our own right-to-left pages (Arabic, Hebrew, mixed), rendered by pango: `rtl/make.ts`.
  // Our own pdflatex pages of held-out formulas, typeset under .cache/ on first use: `formulas/make.ts`.
  formulas: () => formulaSet(),
  // Our own table PDFs printed by Chromium from seeded HTML tables, scored like ICDAR: `tables/make.ts`.
  tables: () =>
    icdarSet(TABLES_DIR, {
      name: 'tables',
      description: `${TABLE_COUNT} synthetic table pages (seeded HTML tables: booktabs, grid, header rule only, unruled; spanning headers, multi-line cells) printed by Chromium to \`.cache/quality/tables\`: adjacency-relation F1, micro-averaged`,
      prepare: () => ensureTableSet(),
    }),
  // The document factory (`bench/factory/`): seeded documents from Chromium, LibreOffice and pdflatex with exact truth, and their scans.
  factory: () => factorySet(false),
  'factory-scans': () => factorySet(true),
  rtl: () => groundTruthSet(fileURLToPath(new URL('../rtl/', import.meta.url)).replace(/\/$/, ''), 'rtl'),
};

export { groundTruthSet, isRightToLeft } from './docling.ts';
export { icdarSet } from './icdar.ts';
export { olmocrSet } from './olmocr.ts';
export { pageCount } from './pages.ts';
