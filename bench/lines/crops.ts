/**
 * Line crops of the dev scan sets with their truth: each sampled page of a dev PDF is rendered by
 * poppler at the scan resolution, its text layer's lines (`pdftotext -bbox-layout`) give the boxes
 * and the truth, and the page is degraded by the scan degrader (blur, sensor noise, JPEG; no skew and
 * no turn, so the text layer's boxes stay on their lines). Every recogniser reads the same boxes on
 * the same page image.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import type { RotatedBox } from '../../inference/paddle/geometry.ts';
import type { Rgb } from '../../inference/paddle/raster.ts';
import { degradePage, drawDegradation } from '../scans/degrade.ts';
import { seededRandom } from '../scans/random.ts';

const run = promisify(execFile);

export interface LineCrop {
  readonly set: string;
  readonly doc: string;
  readonly page: number;
  /** `clean` (the render) or `degraded` (the scan degrader's blur, noise and JPEG). */
  readonly condition: 'clean' | 'degraded';
  readonly truth: string;
  readonly box: RotatedBox;
  /** Index into {@link LinePages.images}. */
  readonly image: number;
}

export interface LinePages {
  readonly images: Rgb[];
  readonly crops: LineCrop[];
  readonly skipped: { doc: string; reason: string }[];
}

export interface BuildCropsOptions {
  readonly dataDir: string;
  /** Set name → folder under `dataDir`. */
  readonly sets: Readonly<Record<string, string>>;
  /** Documents per set (first by name). @default 6 */
  readonly docsPerSet?: number;
  /** Lines kept per set and condition, drawn with the seed. @default 120 */
  readonly linesPerSet?: number;
  /** @default 200 */
  readonly dpi?: number;
  /** @default 'folio-lines-1' */
  readonly seed?: string;
}

/** Text-layer truth as a reader should write it: compatibility forms folded (ligatures), spaces collapsed. */
export function normaliseLine(text: string): string {
  return text.normalize('NFKC').replace(/\s+/g, ' ').trim();
}

const unescape = (s: string): string =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** Lines of one page from `pdftotext -bbox-layout` XHTML: PDF-point boxes and their words' text. */
export function parseBboxLines(xhtml: string): { x1: number; y1: number; x2: number; y2: number; text: string }[] {
  const out = [];
  for (const m of xhtml.matchAll(/<line xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([\s\S]*?)<\/line>/g)) {
    const words = [...m[5]!.matchAll(/<word[^>]*>([\s\S]*?)<\/word>/g)].map((w) => unescape(w[1]!));
    out.push({ x1: Number(m[1]), y1: Number(m[2]), x2: Number(m[3]), y2: Number(m[4]), text: words.join(' ') });
  }
  return out;
}

/**
 * Render, degrade and cut the dev pages.
 *
 * @example
 * const { crops } = await buildLineCrops({ dataDir: '../shared/data', sets: { docling: 'docling-dev/pdf' } });
 */
export async function buildLineCrops(options: Readonly<BuildCropsOptions>): Promise<LinePages> {
  const { dataDir, sets, docsPerSet = 6, linesPerSet = 120, dpi = 200, seed = 'folio-lines-1' } = options;
  const images: Rgb[] = [];
  const crops: LineCrop[] = [];
  const skipped: { doc: string; reason: string }[] = [];
  const tmp = await mkdtemp(join(tmpdir(), 'folio-lines-'));
  try {
    for (const [set, folder] of Object.entries(sets)) {
      const docs = (await readdir(join(dataDir, folder))).filter((f) => f.toLowerCase().endsWith('.pdf')).sort();
      const found: Omit<LineCrop, 'condition' | 'image'>[][] = [];
      const pageImages: Rgb[][] = [];
      for (const doc of docs.slice(0, docsPerSet)) {
        const path = join(dataDir, folder, doc);
        try {
          const { stdout } = await run('pdftotext', ['-f', '1', '-l', '1', '-bbox-layout', path, '-'], { maxBuffer: 64 << 20, timeout: 60_000 });
          const s = dpi / 72;
          const lines = parseBboxLines(stdout)
            .map((l) => ({ ...l, text: normaliseLine(l.text) }))
            // Horizontal lines with some text; a line taller than wide is rotated text the box cannot hold.
            .filter((l) => l.text.length >= 2 && l.x2 - l.x1 > l.y2 - l.y1 && (l.y2 - l.y1) * s >= 8);
          if (lines.length === 0) {
            skipped.push({ doc: `${set}/${doc}`, reason: 'no text-layer lines on page 1' });
            continue;
          }
          const base = join(tmp, 'page');
          await run('pdftoppm', ['-f', '1', '-l', '1', '-r', String(dpi), '-gray', '-png', '-singlefile', path, base], { timeout: 120_000 });
          const { data, info } = await sharp(`${base}.png`).greyscale().raw().toBuffer({ resolveWithObject: true });
          const grey = new Uint8Array(info.width * info.height);
          for (let i = 0; i < grey.length; i++) grey[i] = data[i * info.channels]!;
          const random = seededRandom(`${seed}/${set}/${doc}`);
          const d = { ...drawDegradation(random, { maxSkewDeg: 0, turnedShare: 0 }), skewDeg: 0, turn: 0 as const };
          const degraded = await degradePage(grey, info.width, info.height, d, random);
          const dg = await sharp(degraded.jpeg).greyscale().raw().toBuffer({ resolveWithObject: true });
          pageImages.push([toRgb(grey, info.width, info.height), toRgb(new Uint8Array(dg.data), dg.info.width, dg.info.height)]);
          found.push(
            lines.map((l) => {
              const h = (l.y2 - l.y1) * s;
              const box: RotatedBox = { cx: ((l.x1 + l.x2) / 2) * s, cy: ((l.y1 + l.y2) / 2) * s, w: (l.x2 - l.x1) * s + 0.4 * h, h: h * 1.25, angle: 0 };
              return { set, doc, page: 1, truth: l.text, box };
            }),
          );
        } catch (error) {
          skipped.push({ doc: `${set}/${doc}`, reason: error instanceof Error ? error.message.split('\n')[0]! : String(error) });
        }
      }
      // The same lines in both conditions; a seeded draw spreads them over the documents.
      const all = found.flatMap((lines, p) => lines.map((l) => ({ l, p })));
      const random = seededRandom(`${seed}/${set}/draw`);
      const drawn = shuffle(all, random).slice(0, linesPerSet);
      for (const [c, condition] of (['clean', 'degraded'] as const).entries()) {
        const first = images.length;
        pageImages.forEach((pair) => images.push(pair[c]!));
        for (const { l, p } of drawn) crops.push({ ...l, condition, image: first + p });
      }
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return { images, crops, skipped };
}

function toRgb(grey: Uint8Array, width: number, height: number): Rgb {
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < grey.length; i++) data[3 * i] = data[3 * i + 1] = data[3 * i + 2] = grey[i]!;
  return { data, width, height };
}

function shuffle<T>(items: readonly T[], random: { next(): number }): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
