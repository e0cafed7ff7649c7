/**
 * Replays the OCR document pass (`pipeline/run/ocr-furniture.ts`) on elements a factory-scans run
 * already wrote (`folio convert` JSON), with the engine's own page labels as they came, and scores
 * furniture against the factory truth: the doc pass can be tried without reading the scans again.
 *
 * node training/furniture/replay-ocr.ts DIR_OF_JSON FACTORY_DIR
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { furnitureCounts, readTruth } from '../../bench/factory/score.ts';
import type { Element } from '../../core/types.ts';
import { markOcrFurniture } from '../../pipeline/run/ocr-furniture.ts';

const [dir = '', factory = '.cache/factory'] = process.argv.slice(2);
let matched = 0;
let truthUnits = 0;
let foundUnits = 0;
for (const file of (await readdir(dir)).filter((f) => f.endsWith('.json'))) {
  const json = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as {
    pages: { pageNumber: number; width: number; height: number; engine: string }[];
    elements: Element[];
  };
  // Back to what the engine said: paddle's `page_header` / `page_footer` labels.
  const elements = json.elements.map(
    (e): Element => ({
      ...e,
      kind:
        e.label === 'page_header'
          ? 'pageHeader'
          : e.label === 'page_footer'
            ? 'pageFooter'
            : e.kind === 'pageHeader' || e.kind === 'pageFooter'
              ? 'paragraph'
              : e.kind,
    }),
  );
  const pages = json.pages.map((p) => ({
    width: p.width,
    height: p.height,
    ocr: p.engine !== 'text',
    elements: elements.filter((e) => e.pageNumber === p.pageNumber),
  }));
  const marked = markOcrFurniture(pages).flat();
  const counts = furnitureCounts(marked, await readTruth(path.join(factory, 'truth'), file.replace(/\.json$/, '')));
  matched += counts.matched;
  truthUnits += counts.truthUnits;
  foundUnits += counts.foundUnits;
}
console.log(`furniture precision ${(matched / foundUnits).toFixed(3)} recall ${(matched / truthUnits).toFixed(3)}`);
