/**
 * `factory-scans`: every factory document printed, fed and scanned: each page rendered at 150–300
 * dpi, degraded by the scan degrader of `bench/scans/` (skew, blur, noise, JPEG, some pages turned)
 * and bound into an image-only PDF. Same names and truth as the born-digital set.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describeError } from '../../core/errors.ts';
import { openPdf } from '../../pipeline/pdf/index.ts';
import { renderPdfPage } from '../../pipeline/render/index.ts';
import { degradePage, drawDegradation } from '../scans/degrade.ts';
import type { JpegPage } from '../scans/image-pdf.ts';
import { jpegPagesPdf } from '../scans/image-pdf.ts';
import { seededRandom } from '../scans/random.ts';

export interface ScanDocumentsOptions {
  readonly seed: string;
  readonly pdfDir: string;
  readonly outDir: string;
  readonly ids: readonly string[];
  readonly log: (line: string) => void;
}

/** Scan one document; resolves to its image-only PDF. */
export async function scanDocument(pdfPath: string, seed: string): Promise<Uint8Array> {
  const random = seededRandom(`${seed}/scan/${path.basename(pdfPath)}`);
  // One scanner per document: the same resolution for every page, as a feeder scans a stack.
  const dpi = random.pick([150, 200, 200, 300]);
  const pdf = await openPdf(await readFile(pdfPath), { source: pdfPath });
  const pages: JpegPage[] = [];
  try {
    for (let n = 1; n <= pdf.numPages; n++) {
      const image = await renderPdfPage(await pdf.page(n), { source: pdfPath, docId: pdfPath, pageNumber: n, dpi });
      const grey = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
        .greyscale()
        .raw()
        .toBuffer();
      const degraded = await degradePage(grey, image.width, image.height, drawDegradation(random, { turnedShare: 0.1 }), random);
      pages.push(degraded);
    }
  } finally {
    await pdf.close();
  }
  return jpegPagesPdf(pages, dpi);
}

/** Scan every document into `outDir/<id>.pdf`; a document that cannot be scanned is logged and left out. */
export async function scanDocuments({ seed, pdfDir, outDir, ids, log }: Readonly<ScanDocumentsOptions>): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const done: string[] = [];
  const t0 = performance.now();
  for (const id of ids) {
    try {
      await writeFile(path.join(outDir, `${id}.pdf`), await scanDocument(path.join(pdfDir, `${id}.pdf`), seed));
      done.push(id);
    } catch (error) {
      log(`factory: scan of ${id} failed: ${describeError(error)}`);
    }
  }
  log(`factory: scanned ${done.length}/${ids.length} documents in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return done;
}
