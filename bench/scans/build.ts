/**
 * The degraded dev set: born-digital pages of `../shared/data` whose text layer is good, turned
 * into image-only PDFs by the scan degrader, with the text layer as truth. Written under
 * `.cache/scans` (ignored by git) and rebuilt by `npx folio bench scans --rebuild`; the same seed
 * gives the same set.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { describeError } from '../../core/errors.ts';
import { openPdf } from '../../pipeline/pdf/index.ts';
import { renderPdfPage } from '../../pipeline/render/index.ts';
import type { Degradation, DegradationRanges } from './degrade.ts';
import { degradePage, drawDegradation } from './degrade.ts';
import { jpegPdf } from './image-pdf.ts';
import { seededRandom } from './random.ts';
import type { TruthGate } from './truth.ts';
import { pageText, textProblem, usablePages } from './truth.ts';

/** Where the source documents of each set live, under the data folder. */
export const SCAN_SOURCES: Readonly<Record<string, string>> = {
  docling: 'docling-dev/pdf',
  icdar2013: 'icdar2013-dev',
  gnarly: 'gnarly',
};

export interface ScanPage {
  /** Source set (`docling`, `icdar2013`, `gnarly`). */
  readonly set: string;
  /** Source document file name. */
  readonly doc: string;
  /** 1-based page of the source document. */
  readonly page: number;
  /** The image-only PDF, relative to the set's folder. */
  readonly file: string;
  /** The truth text file, relative to the set's folder. */
  readonly truth: string;
  readonly width: number;
  readonly height: number;
  readonly degradation: Degradation;
}

export interface ScanManifest {
  readonly seed: string;
  readonly dpi: number;
  readonly perDoc: number;
  readonly pages: readonly ScanPage[];
  /** Documents left out and why (no good page, cannot open). */
  readonly skipped: readonly { readonly doc: string; readonly reason: string }[];
}

export interface BuildScanSetOptions {
  /** @default '../shared/data' */
  readonly dataDir?: string;
  /** @default '.cache/scans' */
  readonly outDir?: string;
  /** @default 'folio-scans-1' */
  readonly seed?: string;
  /** Pages drawn from each document (fewer when it has fewer good pages). @default 1 */
  readonly perDoc?: number;
  /** Scan resolution. @default 200 */
  readonly dpi?: number;
  /** Source sets to draw from. @default every key of {@link SCAN_SOURCES} */
  readonly sets?: readonly string[];
  readonly ranges?: Readonly<DegradationRanges>;
  readonly gate?: Readonly<TruthGate>;
  /** Progress lines. @default console.error */
  readonly log?: (line: string) => void;
}

/**
 * Build (or rebuild) the degraded dev set and its manifest (`<outDir>/manifest.json`).
 *
 * @example
 * const manifest = await buildScanSet({ perDoc: 1 });
 */
export async function buildScanSet(options: Readonly<BuildScanSetOptions> = {}): Promise<ScanManifest> {
  const {
    dataDir = '../shared/data',
    outDir = '.cache/scans',
    seed = 'folio-scans-1',
    perDoc = 1,
    dpi = 200,
    sets = Object.keys(SCAN_SOURCES),
    ranges = {},
    gate = {},
    log = (l: string) => console.error(l),
  } = options;
  const pages: ScanPage[] = [];
  const skipped: { doc: string; reason: string }[] = [];
  for (const set of sets) {
    const dir = join(dataDir, SCAN_SOURCES[set] ?? set);
    const files = (await readdir(dir)).filter((f) => f.toLowerCase().endsWith('.pdf')).sort();
    await mkdir(join(outDir, set), { recursive: true });
    for (const file of files) {
      const path = join(dir, file);
      try {
        const chosen = await choosePages(path, `${seed}/${set}/${file}`, perDoc, gate);
        if (chosen.length === 0) {
          skipped.push({ doc: `${set}/${file}`, reason: 'no page with a good text layer' });
          continue;
        }
        const pdf = await openPdf(await readFile(path), { source: path });
        try {
          for (const { page, text } of chosen) {
            const random = seededRandom(`${seed}/${set}/${file}#${page}`);
            const image = await renderPdfPage(await pdf.page(page), { source: path, docId: path, pageNumber: page, dpi });
            const grey = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
              .greyscale()
              .raw()
              .toBuffer();
            const degradation = drawDegradation(random, ranges);
            const scan = await degradePage(grey, image.width, image.height, degradation, random);
            const name = `${basename(file, '.pdf')}-p${page}`;
            await writeFile(join(outDir, set, `${name}.pdf`), jpegPdf(scan.jpeg, scan.width, scan.height, dpi));
            await writeFile(join(outDir, set, `${name}.txt`), text);
            pages.push({ set, doc: file, page, file: `${name}.pdf`, truth: `${name}.txt`, width: scan.width, height: scan.height, degradation });
            log(
              `scans: ${set}/${name} skew ${degradation.skewDeg.toFixed(2)}° turn ${degradation.turn} noise ${degradation.noiseSigma.toFixed(1)} q${degradation.jpegQuality}`,
            );
          }
        } finally {
          await pdf.close();
        }
      } catch (error) {
        skipped.push({ doc: `${set}/${file}`, reason: describeError(error) });
      }
    }
  }
  const manifest: ScanManifest = { seed, dpi, perDoc, pages, skipped };
  await writeFile(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  log(`scans: ${pages.length} pages from ${new Set(pages.map((p) => `${p.set}/${p.doc}`)).size} documents in ${outDir} (${skipped.length} documents skipped)`);
  return manifest;
}

/** The manifest under `outDir`, or undefined when the set was never built. */
export async function readScanManifest(outDir: string): Promise<ScanManifest | undefined> {
  try {
    return JSON.parse(await readFile(join(outDir, 'manifest.json'), 'utf8')) as ScanManifest;
  } catch {
    return undefined;
  }
}

/** Up to `count` pages with a good text layer, drawn with the document's own random stream. */
async function choosePages(path: string, seed: string, count: number, gate: Readonly<TruthGate>): Promise<{ page: number; text: string }[]> {
  const pdf = await openPdf(await readFile(path), { source: path });
  let usable: Set<number>;
  try {
    usable = await usablePages(pdf, gate);
  } finally {
    await pdf.close();
  }
  const random = seededRandom(seed);
  const candidates = [...usable].sort((a, b) => a - b);
  const out: { page: number; text: string }[] = [];
  while (out.length < count && candidates.length > 0) {
    const page = candidates.splice(Math.floor(random.next() * candidates.length), 1)[0]!;
    const text = await pageText(path, page);
    if (textProblem(text, gate) === undefined) out.push({ page, text });
  }
  return out.sort((a, b) => a.page - b.page);
}
