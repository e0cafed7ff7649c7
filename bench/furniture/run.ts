/**
 * The furniture bench: generated documents (`documents.ts`) rendered, degraded like the scans set
 * (`bench/scans`: skew, blur, noise, JPEG) and rebuilt as image-only PDFs, read by Folio `auto`
 * (so every page goes to OCR). Furniture precision and recall are counted in character trigrams: those of
 * the `pageHeader` / `pageFooter` elements against those of the known furniture lines of the
 * page; the body CER compares the page's Markdown (furniture left out) with the known body text.
 */

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { sha256 } from '../../core/hash.ts';
import type { Element, SourceDocument } from '../../core/types.ts';
import { createPaddleEngine } from '../../inference/paddle/index.ts';
import { renderMarkdown } from '../../pipeline/markdown/index.ts';
import { openPdf } from '../../pipeline/pdf/index.ts';
import { renderPdfPage } from '../../pipeline/render/index.ts';
import { processDocument } from '../../pipeline/run/index.ts';
import { trigrams } from '../factory/score.ts';
import { degradePage, drawDegradation, scorePage, seededRandom } from '../scans/index.ts';
import type { FurniturePageTruth, FurnitureStyle } from './documents.ts';
import { FURNITURE_STYLES, generateDocument } from './documents.ts';

export interface FurnitureBenchOptions {
  /** Documents generated (styles in turn). @default 16 */
  readonly documents?: number;
  /** @default 'folio-furniture-1' */
  readonly seed?: string;
  /** Where the generated PDFs and scans are kept. @default '.cache/furniture' */
  readonly outDir?: string;
  /** @default 2 */
  readonly threads?: number;
  readonly log?: (line: string) => void;
}

export interface FurniturePageRow {
  readonly doc: string;
  readonly style: string;
  readonly page: number;
  /** Truth furniture trigrams found among the furniture elements' trigrams. */
  readonly matched: number;
  readonly truthUnits: number;
  readonly foundUnits: number;
  readonly bodyCer: number;
}

export interface FurnitureResult {
  readonly seed: string;
  readonly documents: number;
  readonly pages: number;
  readonly precision: number;
  readonly recall: number;
  readonly bodyCer: number;
  readonly byStyle: readonly { style: string; pages: number; precision: number; recall: number; bodyCer: number }[];
  readonly rows: readonly FurniturePageRow[];
}

const DPI = 200;

// Furniture is counted in character trigrams as the factory counts it (`bench/factory/score.ts`).
const total = (m: Map<string, number>): number => [...m.values()].reduce((s, n) => s + n, 0);

/** Score one page: furniture words found and body CER. */
export function scoreFurniturePage(elements: readonly Element[], truth: FurniturePageTruth): Omit<FurniturePageRow, 'doc' | 'style' | 'page'> {
  const isFurniture = (e: Element): boolean => e.kind === 'pageHeader' || e.kind === 'pageFooter';
  const found = trigrams(elements.filter(isFurniture).map((e) => e.text));
  const want = trigrams(truth.furniture);
  let matched = 0;
  for (const [w, n] of want) matched += Math.min(n, found.get(w) ?? 0);
  const body = renderMarkdown(elements.filter((e) => !isFurniture(e)));
  return { matched, truthUnits: total(want), foundUnits: total(found), bodyCer: scorePage(body, truth.body).cer };
}

/**
 * Generate, degrade, read and score the set.
 *
 * @example
 * const result = await runFurnitureSet({ documents: 6 });
 */
export async function runFurnitureSet(options: Readonly<FurnitureBenchOptions> = {}): Promise<FurnitureResult> {
  const { documents = 16, seed = 'folio-furniture-1', outDir = '.cache/furniture', threads = 2, log = (line: string) => console.error(line) } = options;
  await mkdir(outDir, { recursive: true });
  const engine = await createPaddleEngine({ threads });
  const rows: FurniturePageRow[] = [];
  try {
    for (let d = 0; d < documents; d++) {
      const style: FurnitureStyle = FURNITURE_STYLES[d % FURNITURE_STYLES.length]!;
      const random = seededRandom(`${seed}/${d}`);
      const pageCount = 1 + Math.floor(random.next() * 3);
      const name = `${style}-${d}`;
      const doc = await generateDocument(name, style, pageCount, random);
      const scan = await scanDocument(doc.pdf, random);
      const path = join(outDir, `${name}.pdf`);
      await writeFile(path, scan);
      const source: SourceDocument = {
        id: sha256(path),
        uri: `file://${path}`,
        relativePath: path,
        mime: 'application/pdf',
        bytes: scan,
        contentHash: sha256(scan),
      };
      const processed = await processDocument(source, { engine: 'auto', ocr: async () => ({ ...engine, close: async () => undefined }) });
      // What was read, kind by kind, for inspection.
      const read = processed.elements.map((e) => ({ page: e.pageNumber, kind: e.kind, text: e.text }));
      await writeFile(join(outDir, `${name}.json`), `${JSON.stringify({ truth: doc.pages, read }, null, 1)}\n`);
      doc.pages.forEach((truth, i) => {
        const elements = processed.elements.filter((e) => e.pageNumber === i + 1);
        const row = { doc: name, style, page: i + 1, ...scoreFurniturePage(elements, truth) };
        rows.push(row);
        log(`furniture: ${name} p${i + 1}: furniture trigrams ${row.matched}/${row.truthUnits}, found ${row.foundUnits}, body CER ${row.bodyCer.toFixed(3)}`);
      });
    }
  } finally {
    await engine.close();
  }
  const summarise = (subset: readonly FurniturePageRow[]) => {
    const matched = subset.reduce((s, r) => s + r.matched, 0);
    const found = subset.reduce((s, r) => s + r.foundUnits, 0);
    const want = subset.reduce((s, r) => s + r.truthUnits, 0);
    return {
      pages: subset.length,
      precision: found === 0 ? 1 : matched / found,
      recall: want === 0 ? 1 : matched / want,
      bodyCer: subset.length === 0 ? 0 : subset.reduce((s, r) => s + r.bodyCer, 0) / subset.length,
    };
  };
  const byStyle = FURNITURE_STYLES.map((style) => ({ style, ...summarise(rows.filter((r) => r.style === style)) })).filter((s) => s.pages > 0);
  return { seed, documents, ...summarise(rows), byStyle, rows };
}

/**
 * The PDF's pages rendered at the scan DPI, degraded, and put back together as an image-only PDF.
 *
 * @example
 * const scan = await scanDocument(doc.pdf, seededRandom('x'));
 */
export async function scanDocument(bytes: Uint8Array, random: ReturnType<typeof seededRandom>): Promise<Uint8Array> {
  const pdf = await openPdf(bytes, { source: 'generated' });
  const out = await PDFDocument.create();
  try {
    for (let n = 1; n <= pdf.numPages; n++) {
      const image = await renderPdfPage(await pdf.page(n), { source: 'generated', docId: 'generated', pageNumber: n, dpi: DPI });
      const grey = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
        .greyscale()
        .raw()
        .toBuffer();
      const scan = await degradePage(grey, image.width, image.height, drawDegradation(random, { turnedShare: 0.1 }), random);
      const jpg = await out.embedJpg(scan.jpeg);
      const page = out.addPage([(scan.width * 72) / DPI, (scan.height * 72) / DPI]);
      page.drawImage(jpg, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
    }
  } finally {
    await pdf.close();
  }
  return out.save();
}
