/**
 * Line recognition with the PP-OCR CTC model (PP-OCRv4 by default, see `models.ts`): each box is fitted to its ink (`tighten.ts`),
 * scaled to 48 px high, sorted by width and batched under a column budget, decoded greedily, and
 * given back the word spaces the model skipped (`spaces.ts`).
 *
 * Why a column budget rather than a fixed batch size: on the CPU the model's cost per column is
 * lowest for one line at a time and grows with the batch's total width (activations fall out of
 * the cache), while tiny lines alone waste a run's fixed overhead. So short lines (table cells,
 * page numbers) share a run and long ones run alone. Lines are not padded to the model's 320 px
 * training width either: a 60 px cell padded to 320 cost five times its own width.
 */
import { cropInto } from './crop.ts';
import { ctcPath, meanConfidence } from './ctc.ts';
import type { RotatedBox } from './geometry.ts';
import type { RecRun } from './lanes.ts';
import type { Rgb } from './raster.ts';
import { paperColumns, STEP_COLUMNS, withSpaces } from './spaces.ts';
import type { StageTimes } from './stages.ts';
import { lap } from './stages.ts';
import type { TightenOptions } from './tighten.ts';
import { tightenBox } from './tighten.ts';

/** The model's input height. */
export const REC_HEIGHT = 48;
/** Classifier probability above which a line is also read upside down. */
const FLIP_SUSPECT = 0.9;
/** Narrowest input: a few CTC steps, so a lone digit still has room to be read. */
const MIN_W = 32;
/** Beyond this a line is so long the model's receptive field no longer helps; cap the cost. */
const MAX_W = 3200;

export interface RecognizedLine {
  readonly text: string;
  /** Mean probability of the kept characters. */
  readonly confidence: number;
}

export interface LineInput {
  readonly box: RotatedBox;
  readonly flip: boolean;
}

export interface RecognizeLinesOptions {
  /** Most lines in one model run. @default 8 */
  readonly batchSize?: number;
  /** Most padded columns (lines × widest line) in one model run; a wider line runs alone. @default 1280 */
  readonly batchColumns?: number;
  /** Put back word spaces the model missed. @default true */
  readonly inferSpaces?: boolean;
  /** Fit each box to its ink before cropping (see `tighten.ts`); `false` crops the boxes as given. @default {} */
  readonly tighten?: Readonly<TightenOptions> | false;
  /** Batches run at once (the lanes `run` has). @default 1 */
  readonly concurrency?: number;
  /** Stage times to add to (`tighten`, `crop`, `recRun` summed over lanes, `decode`). */
  readonly times?: StageTimes;
  /** Work counters to add to: model runs and padded input columns (the recogniser's cost is about linear in them). */
  readonly counters?: RecognizeCounters;
}

export interface RecognizeCounters {
  runs: number;
  columns: number;
}

/** Width a line gets in the recogniser's input (its aspect ratio at 48 px high, capped). */
export function recWidth(box: RotatedBox): number {
  return Math.min(MAX_W, Math.max(1, Math.ceil((REC_HEIGHT * box.w) / Math.max(1, box.h))));
}

/**
 * Recognise lines; results come back in input order.
 *
 * @example
 * const texts = await recognizeLines(lanes.run, upright, [{ box, flip: false }], dictionary, { concurrency: lanes.count });
 */
export async function recognizeLines(
  run: RecRun,
  image: Rgb,
  lines: readonly LineInput[],
  dictionary: readonly string[],
  options: Readonly<RecognizeLinesOptions> = {},
): Promise<RecognizedLine[]> {
  const { batchSize = 8, batchColumns = 1280, inferSpaces = true, tighten = {}, concurrency = 1, times, counters } = options;
  const t0 = performance.now();
  const boxes = lines.map((l) => (tighten === false ? l.box : tightenBox(image, l.box, tighten)));
  lap(times, 'tighten', t0);
  const widths = boxes.map((b) => recWidth(b));
  const order = lines.map((_, i) => i).sort((a, b) => widths[a]! - widths[b]!);
  const result: RecognizedLine[] = new Array(lines.length);
  // Widest first: with several lanes, the long runs start early and the short ones fill in at
  // the end, so no lane sits idle while another finishes one long line.
  const queue = batches(order, widths, batchSize, batchColumns).reverse();
  const readBatch = async (ids: readonly number[]): Promise<void> => {
    let t = performance.now();
    // Whole CTC steps: the model reads 8 columns per step, a ragged tail is padding anyway.
    const stride = roundUp(Math.max(MIN_W, widths[ids[ids.length - 1]!]!), STEP_COLUMNS);
    const slot = 3 * REC_HEIGHT * stride;
    if (counters !== undefined) {
      counters.runs++;
      counters.columns += ids.length * stride;
    }
    const data = new Float32Array(ids.length * slot);
    ids.forEach((id, k) => cropInto(data, k * slot, stride, REC_HEIGHT, widths[id]!, image, boxes[id]!, lines[id]!.flip));
    // Before the run: the batch may move to a worker thread and be gone from here.
    const papers = ids.map((id, k) => (inferSpaces ? paperColumns(data, k * slot, stride, REC_HEIGHT, widths[id]!) : undefined));
    t = lap(times, 'crop', t);
    const { probs, dims } = await run(data, [ids.length, 3, REC_HEIGHT, stride]);
    t = lap(times, 'recRun', t);
    const [, steps = 0, classes = 0] = dims;
    ids.forEach((id, k) => {
      const chars = ctcPath(probs, k * steps * classes, steps, classes);
      result[id] = { text: withSpaces(chars, dictionary, papers[k], { height: REC_HEIGHT }), confidence: meanConfidence(chars) };
    });
    lap(times, 'decode', t);
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(concurrency, queue.length)) }, async () => {
      while (next < queue.length) await readBatch(queue[next++]!);
    }),
  );
  return result;
}

/**
 * Recognise a page's upright lines. A line the direction classifier thinks is upside down on a
 * page that reads upright (a label printed the other way round, or the classifier misled by an
 * old typeface) is read both ways and the more confident reading kept: flipping on the
 * classifier's word alone (at p > 0.98) turned good lines into noise, and missed real ones it
 * gave 0.96.
 *
 * @example
 * const texts = await readLines(lanes.run, found.upright, found.lines, dictionary, { concurrency: lanes.count });
 */
export async function readLines(
  run: RecRun,
  image: Rgb,
  lines: readonly { readonly box: RotatedBox; readonly p180: number }[],
  dictionary: readonly string[],
  options: Readonly<RecognizeLinesOptions> = {},
): Promise<RecognizedLine[]> {
  const texts = await recognizeLines(
    run,
    image,
    lines.map((l) => ({ box: l.box, flip: false })),
    dictionary,
    options,
  );
  const suspects = lines.flatMap((l, i) => (l.p180 > FLIP_SUSPECT ? [i] : []));
  if (suspects.length === 0) return texts;
  const flipped = await recognizeLines(
    run,
    image,
    suspects.map((i) => ({ box: lines[i]!.box, flip: true })),
    dictionary,
    options,
  );
  suspects.forEach((i, k) => {
    if (flipped[k]!.confidence > texts[i]!.confidence) texts[i] = flipped[k]!;
  });
  return texts;
}

/** Consecutive runs of `order` (sorted by width) within the line and column budgets. */
export function batches(order: readonly number[], widths: readonly number[], batchSize: number, batchColumns: number): number[][] {
  const out: number[][] = [];
  let current: number[] = [];
  for (const id of order) {
    // Sorted by width, so the newest line is the widest: the batch pads to it.
    if (current.length > 0 && (current.length >= batchSize || (current.length + 1) * widths[id]! > batchColumns)) {
      out.push(current);
      current = [];
    }
    current.push(id);
  }
  if (current.length > 0) out.push(current);
  return out;
}

function roundUp(value: number, step: number): number {
  return Math.ceil(value / step) * step;
}

/**
 * Greedy CTC decoding of one sequence of `steps × classes` probabilities starting at `offset`,
 * without space inference.
 */
export function ctcGreedy(probs: Float32Array, offset: number, steps: number, classes: number, dictionary: readonly string[]): RecognizedLine {
  const chars = ctcPath(probs, offset, steps, classes);
  return { text: chars.map((c) => dictionary[c.id] ?? '').join(''), confidence: meanConfidence(chars) };
}
