/**
 * The line bench's measurements: CER of each recogniser per dev set and condition on the same
 * crops, then folio-ocr-lines' decoding on real crops: τ and speed-up over greedy at K = 1..5 at
 * batch 1, lines/s at batch 1 and 32 (greedy and K = 3), beside PP-OCRv4's lines/s.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LineReader } from '../../inference/onnx/line-reader.ts';
import { createLineReader } from '../../inference/onnx/line-reader.ts';
import type { Device } from '../../inference/runtime/ort.ts';
import { editDistance } from '../ocr/cer.ts';
import type { LineCrop, LinePages } from './crops.ts';
import { normaliseLine } from './crops.ts';
import type { LineRead } from './readers.ts';
import { createPaddleLines, readFolio, readTesseract } from './readers.ts';

export const LINE_READERS = ['folio', 'paddle', 'tesseract'] as const;
export type LineReaderName = (typeof LINE_READERS)[number];

export interface LinesBenchConfig {
  readonly modelDir?: string;
  readonly device: Device;
  readonly threads: number;
  readonly readers: readonly LineReaderName[];
  /** Crops timed for τ and speed (0: no speed section). */
  readonly speedLines: number;
  readonly ks: readonly number[];
  readonly runs: number;
  readonly log: (line: string) => void;
}

export interface QualityRow {
  readonly set: string;
  readonly condition: string;
  /** A recogniser, or `folio+paddle`: folio-ocr-lines with its refused and empty lines read by PP-OCRv4 (`--recognizer folio`). */
  readonly reader: LineReaderName | 'folio+paddle';
  readonly lines: number;
  readonly cer: number;
  readonly exact: number;
  /** folio-ocr-lines' refusals (guarded readings). */
  readonly guarded?: number;
}

export interface SpeedRow {
  readonly reader: 'folio' | 'paddle';
  readonly batch: number;
  readonly k: number;
  readonly seconds: number;
  readonly linesPerS: number;
  readonly tau?: number;
  readonly speedup?: number;
}

export interface LinesBenchResult {
  readonly quality: QualityRow[];
  readonly speed: SpeedRow[];
  readonly examples: { set: string; condition: string; truth: string; reads: Record<string, string> }[];
  readonly mistakes: Record<string, number>;
}

/** Sum of edit distances over sum of truth lengths, after the truth's normalisation on both sides. */
export function lineCer(reads: readonly string[], truths: readonly string[]): number {
  let e = 0;
  let n = 0;
  reads.forEach((r, i) => {
    const t = truths[i]!;
    e += editDistance(normaliseLine(r), t);
    n += [...t].length;
  });
  return n === 0 ? 0 : e / n;
}

export async function measureLines(pages: LinePages, config: Readonly<LinesBenchConfig>): Promise<LinesBenchResult> {
  const { crops, images } = pages;
  const reads: Partial<Record<LineReaderName, LineRead[]>> = {};
  const started = (name: string): (() => void) => {
    const t = performance.now();
    return () => config.log(`lines: ${name} read ${crops.length} crops in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  };
  if (config.readers.includes('folio')) {
    const reader = await createLineReader({ modelDir: config.modelDir, device: config.device, threads: config.threads });
    try {
      const done = started('folio-ocr-lines');
      reads.folio = await readFolio(reader, images, crops);
      done();
    } finally {
      await reader.release();
    }
  }
  if (config.readers.includes('paddle')) {
    const paddle = await createPaddleLines(Math.max(1, config.threads));
    try {
      const done = started('PP-OCRv4');
      reads.paddle = await paddle.read(images, crops);
      done();
    } finally {
      await paddle.release();
    }
  }
  if (config.readers.includes('tesseract')) {
    const tmp = await mkdtemp(join(tmpdir(), 'folio-lines-tess-'));
    try {
      const done = started('Tesseract');
      reads.tesseract = await readTesseract(images, crops, tmp);
      done();
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }
  if (reads.folio && reads.paddle) {
    const paddle = reads.paddle;
    (reads as Record<string, LineRead[]>)['folio+paddle'] = reads.folio.map((r, i) => (r.guard !== undefined || r.text === '' ? paddle[i]! : r));
  }
  const names = [...config.readers, ...(reads.folio && reads.paddle ? (['folio+paddle'] as const) : [])];
  const quality: QualityRow[] = [];
  const groups = new Map<string, number[]>();
  crops.forEach((c, i) => {
    const key = `${c.set}\t${c.condition}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  for (const [key, ids] of [...groups].concat([[`all\tall`, crops.map((_, i) => i)]])) {
    const [set, condition] = key.split('\t') as [string, string];
    for (const reader of names) {
      const r = (reads as Record<string, LineRead[]>)[reader]!;
      const texts = ids.map((i) => r[i]!.text);
      const truths = ids.map((i) => crops[i]!.truth);
      quality.push({
        set,
        condition,
        reader,
        lines: ids.length,
        cer: lineCer(texts, truths),
        exact: ids.filter((i) => normaliseLine(r[i]!.text) === crops[i]!.truth).length / Math.max(1, ids.length),
        ...(reader === 'folio' ? { guarded: ids.filter((i) => r[i]!.guard !== undefined).length } : {}),
      });
    }
  }
  const examples = crops
    .map((c, i) => ({ c, i }))
    .filter((_, k) => k % Math.max(1, Math.floor(crops.length / 12)) === 0)
    .slice(0, 12)
    .map(({ c, i }) => ({
      set: c.set,
      condition: c.condition,
      truth: c.truth,
      reads: Object.fromEntries(Object.entries(reads).map(([k, v]) => [k, v[i]!.text])),
    }));
  const mistakes: Record<string, number> = {};
  if (reads.folio) {
    for (const [i, c] of crops.entries()) {
      const g = reads.folio[i]!.guard;
      if (g) mistakes[`guard:${g}`] = (mistakes[`guard:${g}`] ?? 0) + 1;
      const t = normaliseLine(reads.folio[i]!.text);
      if (t === c.truth) continue;
      if (t.replace(/ /g, '') === c.truth.replace(/ /g, '')) mistakes.spacesOnly = (mistakes.spacesOnly ?? 0) + 1;
      else if (t.toLowerCase() === c.truth.toLowerCase()) mistakes.caseOnly = (mistakes.caseOnly ?? 0) + 1;
      else mistakes.other = (mistakes.other ?? 0) + 1;
    }
  }
  const speed = config.speedLines > 0 && config.readers.includes('folio') ? await measureSpeed(pages, config) : [];
  return { quality, speed, examples, mistakes };
}

/** Crops spread over the sets and both conditions. */
function speedCrops(crops: readonly LineCrop[], n: number): LineCrop[] {
  const step = Math.max(1, Math.floor(crops.length / n));
  return crops.filter((_, i) => i % step === 0).slice(0, n);
}

async function measureSpeed(pages: LinePages, config: Readonly<LinesBenchConfig>): Promise<SpeedRow[]> {
  const crops = speedCrops(pages.crops, config.speedLines);
  const rows: SpeedRow[] = [];
  const time = async (reader: LineReader): Promise<{ seconds: number; tokens: number; steps: number }> => {
    await readFolio(reader, pages.images, crops.slice(0, 2)); // warm-up: first runs allocate
    const times: number[] = [];
    let tokens = 0;
    let steps = 0;
    for (let r = 0; r < config.runs; r++) {
      const t = performance.now();
      const out = await readFolio(reader, pages.images, crops);
      times.push((performance.now() - t) / 1000);
      // A view's first token comes from its prefill; τ counts the tokens each decoding pass commits.
      tokens = out.reduce((n, o) => n + (o.tokens ?? 0) - (o.tokens ? (o.views ?? 0) : 0), 0);
      steps = out.reduce((n, o) => n + (o.steps ?? 0), 0);
    }
    times.sort((a, b) => a - b);
    return { seconds: times[Math.floor(times.length / 2)]!, tokens, steps };
  };
  for (const batch of [1, 32]) {
    const ks = batch === 1 ? [0, ...config.ks.filter((k) => k > 0)] : [0, 3];
    let greedy = 0;
    for (const k of ks) {
      const reader = await createLineReader({ modelDir: config.modelDir, device: config.device, threads: config.threads, batchSize: batch, draftK: k });
      try {
        const m = await time(reader);
        if (k === 0) greedy = m.seconds;
        rows.push({
          reader: 'folio',
          batch,
          k,
          seconds: m.seconds,
          linesPerS: crops.length / m.seconds,
          tau: m.steps === 0 ? 0 : m.tokens / m.steps,
          ...(k > 0 ? { speedup: greedy / m.seconds } : {}),
        });
        config.log(`lines: folio batch ${batch} K=${k}: ${(crops.length / m.seconds).toFixed(2)} lines/s, tau ${(m.tokens / Math.max(1, m.steps)).toFixed(2)}`);
      } finally {
        await reader.release();
      }
    }
  }
  if (config.readers.includes('paddle')) {
    const paddle = await createPaddleLines(Math.max(1, config.threads));
    try {
      await paddle.read(pages.images, crops.slice(0, 2));
      const times: number[] = [];
      for (let r = 0; r < config.runs; r++) {
        const t = performance.now();
        await paddle.read(pages.images, crops);
        times.push((performance.now() - t) / 1000);
      }
      times.sort((a, b) => a - b);
      const seconds = times[Math.floor(times.length / 2)]!;
      rows.push({ reader: 'paddle', batch: 8, k: 0, seconds, linesPerS: crops.length / seconds });
    } finally {
      await paddle.release();
    }
  }
  return rows;
}
