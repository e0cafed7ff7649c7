/**
 * The three recognisers the line bench compares, each reading the same boxes on the same page
 * images: folio-ocr-lines through the TypeScript engine (`createLineReader`), PP-OCRv4's CTC
 * recogniser as the paddle engine runs it (`recognizeLines`: ink tightening, 48 px, word spaces put
 * back), and Tesseract on the box cut out as a PNG (`--psm 7`, one line).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { LineReader } from '../../inference/onnx/line-reader.ts';
import { walkBox } from '../../inference/paddle/crop.ts';
import { createLanes } from '../../inference/paddle/lanes.ts';
import { loadDictionary, paddleModelPaths } from '../../inference/paddle/models.ts';
import type { Rgb } from '../../inference/paddle/raster.ts';
import { sample } from '../../inference/paddle/raster.ts';
import { recognizeLines } from '../../inference/paddle/recognize.ts';
import { runChild, TESSERACT_ENV } from '../common/tools.ts';
import type { LineCrop } from './crops.ts';

export interface LineRead {
  readonly text: string;
  readonly tokens?: number;
  readonly steps?: number;
  /** Views the line was read in (each view's first token comes from its prefill, not a decoding pass). */
  readonly views?: number;
  readonly guard?: string;
}

/** Crops grouped by page image, so a reader gets every line of a page in one call. */
function byImage(crops: readonly LineCrop[]): Map<number, number[]> {
  const groups = new Map<number, number[]>();
  crops.forEach((c, i) => {
    groups.set(c.image, [...(groups.get(c.image) ?? []), i]);
  });
  return groups;
}

export async function readFolio(reader: LineReader, images: readonly Rgb[], crops: readonly LineCrop[]): Promise<LineRead[]> {
  const out: LineRead[] = new Array(crops.length);
  for (const [image, ids] of byImage(crops)) {
    const read = await reader.read(
      images[image]!,
      ids.map((i) => ({ box: crops[i]!.box, flip: false })),
    );
    ids.forEach((id, k) => {
      const r = read[k]!;
      out[id] = { text: r.text, tokens: r.tokens, steps: r.steps, views: r.views, ...(r.guard ? { guard: r.guard } : {}) };
    });
  }
  return out;
}

export interface PaddleLines {
  read(images: readonly Rgb[], crops: readonly LineCrop[]): Promise<LineRead[]>;
  release(): Promise<void>;
}

export async function createPaddleLines(lanesCount: number): Promise<PaddleLines> {
  const paths = paddleModelPaths();
  const [lanes, dictionary] = await Promise.all([createLanes(paths.rec, lanesCount), loadDictionary(paths.keys)]);
  return {
    async read(images, crops) {
      const out: LineRead[] = new Array(crops.length);
      for (const [image, ids] of byImage(crops)) {
        const read = await recognizeLines(
          lanes.run,
          images[image]!,
          ids.map((i) => ({ box: crops[i]!.box, flip: false })),
          dictionary,
          { concurrency: lanes.count },
        );
        ids.forEach((id, k) => {
          out[id] = { text: read[k]!.text.trim() };
        });
      }
      return out;
    },
    release: () => lanes.close(),
  };
}

/** Tesseract on each box cut out upright (grey PNG), one line per run, two runs at a time. */
export async function readTesseract(images: readonly Rgb[], crops: readonly LineCrop[], tmp: string): Promise<LineRead[]> {
  const out: LineRead[] = new Array(crops.length);
  let next = 0;
  const worker = async (lane: number): Promise<void> => {
    while (next < crops.length) {
      const i = next++;
      const c = crops[i]!;
      const w = Math.max(1, Math.round(c.box.w));
      const h = Math.max(1, Math.round(c.box.h));
      const grey = new Uint8Array(w * h);
      walkBox(c.box, false, w, h, (u, v, x, y) => {
        grey[v * w + u] = Math.round(sample(images[c.image]!, x, y, 0));
      });
      const file = join(tmp, `line-${lane}.png`);
      await writeFile(
        file,
        await sharp(grey, { raw: { width: w, height: h, channels: 1 } })
          .png()
          .toBuffer(),
      );
      const r = await runChild({ command: 'tesseract', args: [file, 'stdout', '--psm', '7', '-l', 'eng'], env: TESSERACT_ENV, timeoutMs: 60_000 });
      out[i] = { text: r.code === 0 ? r.stdout.replace(/\s+/g, ' ').trim() : '' };
    }
  };
  await Promise.all([worker(0), worker(1)]);
  return out;
}
